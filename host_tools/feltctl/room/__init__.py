# The room on the host (host tools): the MQTT side of felt.room -- a broker for tests and the demo
# (broker), the paho-mqtt link of a table (mqtt), the bridge for a Pico table's console (bridge),
# fast signature checks (keys) and the floor server with its dashboard and overlay (floor_server,
# store, web/). hardware/floor.md describes the scheme.
