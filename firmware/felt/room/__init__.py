# The room (room layer, pure): what a table tells the floor over MQTT -- the topic scheme and the
# signed envelope (message), the messages computed from table state (publisher), the outbox they
# wait in until the broker has them (outbox), and their FELT1 carriage for a Pico table (wire).
# hardware/floor.md describes the scheme.
