# Findings (engine layer, pure): what the engine's checks report -- the dealing check (dealing/), the
# clocks and chip race (between_hands/clocks.py) and out-of-turn actions (hand/out_of_turn.py): the Finding
# record, its class (who acts on it) and its status, the life cycle of a proposal (felt/table/alerts.py's
# alerts use the same proposal statuses).

# Finding.cls: who acts on it
ENGINE = "ENGINE"  # decided by the engine: a note, an alarm or an instruction to follow
ASSIST = "ASSIST"  # a proposal: the dealer confirms or rejects it
FLOOR = "FLOOR"  # recorded; the floor rules

# Finding.status
INFO = "info"  # a note or an alarm; nothing to confirm
APPLIED = "applied"  # an instruction that follows from a confirmation or an ENGINE rule
PROPOSED = "proposed"  # an ASSIST proposal waiting for confirm() / reject()
CONFIRMED = "confirmed"
REJECTED = "rejected"
LAPSED = "lapsed"  # a proposal that no longer applies (e.g. SA reached, DEAL-15)


class Finding:
    """One finding. kind: what (e.g. "misdeal", "premature_turn"); rules: rule IDs; cls: ENGINE / ASSIST /
    FLOOR; text: what was seen; remedy: what the dealer does (words for the console); status: see INFO..
    LAPSED; draw: shoe draw index (1-based) involved; seat; cards; detail: dict of structured data."""

    def __init__(self, kind, rules, cls, text, remedy="", status=INFO, draw=None, seat=None, cards=(), detail=None):
        self.id = 0
        self.kind = kind
        self.rules = rules
        self.cls = cls
        self.text = text
        self.remedy = remedy
        self.status = status
        self.draw = draw
        self.seat = seat
        self.cards = tuple(cards)
        self.detail = detail or {}
        self.street = None  # the street the finding belongs to (premature cards: the street they came for)
        self.key = None  # derived count problems: the condition that raised it
        self.misdeal = False  # a misdeal proposal (lapses at SA, DEAL-15)

    def __repr__(self):
        return "Finding(#%d %s %s %s %s: %s%s)" % (
            self.id, self.kind, "/".join(self.rules), self.cls, self.status, self.text,
            (" -> " + self.remedy) if self.remedy else "")
