# The one exception tree of Felt (all layers). MicroPython cannot give a class two built-in
# exception bases ("multiple bases have instance lay-out conflict"), so the tree hangs from
# FeltError alone; catch FeltError or a leaf. MicroPython also drops `raise ... from`, so
# anything a handler needs is carried as attributes, never as a cause.


class FeltError(Exception):
    """Base of every error Felt raises on purpose."""


class RuleError(FeltError):
    """An input breaks a rule of RULES.md; `rule` is its ID (e.g. 'BET-7'), `message` the rest.

    The engine writes RuleError("BET-7: message", legal=None), the ID leading the text (why:
    hardware/memory.md, "Idioms"); RuleError(rule, message, legal=None) where the ID is a value.
    `legal` optionally describes the legal range, e.g. (min_total, max_total). The state that
    raised it is unchanged."""

    def __init__(self, rule, message=None, legal=None):
        if message is None:  # "RULE-ID: message"
            at = rule.find(": ")
            message = rule[at + 2:] if at > 0 else rule
            rule = rule[:at] if at > 0 else ""
        super().__init__(rule + ": " + message)
        self.rule = rule
        self.message = message
        self.legal = legal


class DeckError(RuleError):
    """A card tag problem (DECK-*)."""


class UnknownTag(DeckError):
    """A tag UID that is in no registered deck."""


class DuplicateCard(DeckError):
    """The same card seen twice in one hand (DECK-5)."""


class ForeignDeckCard(DeckError):
    """A tag of a registered deck that is not the deck in play (DECK-5)."""


class FrameError(FeltError):
    """Bytes on a wire that do not form a valid frame (bad checksum, length, syntax)."""


class DeviceTimeout(FeltError):
    """A device did not answer within its deadline."""


class ConfigError(FeltError):
    """A bad configuration, board or house-rule file."""


class FormatError(FeltError):
    """A broken file (hand history, journal, script); `line` is 1-based when known."""

    def __init__(self, message, line=None):
        super().__init__(message if line is None else "line %d: %s" % (line, message))
        self.message = message
        self.line = line


class StorageFull(FeltError):
    """The board's flash has no room left (ENOSPC) for what it must write (audit log, journal,
    hand files); `free` is the bytes left, -1 when unknown."""

    def __init__(self, message, free=-1):
        super().__init__(message)
        self.free = free
