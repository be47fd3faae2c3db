# The table's record of significant events (firmware, security layer; issue 16 item 4,
# hardware/security.md section 13). The audit log is that record: signed/MACed and chained, never
# rotated away before an acknowledged export (audit.FileStore.protect), the board's own records
# never rate-limited (audit.TRUSTED_KINDS). This module adds the events the boot and the stop
# see -- power up (after a clean stop or not), power down, a firmware change, the maintenance key
# switch turned while the table runs -- and the console query of the room the log has left
# (`get audit_free`).
POWER = "power"
FIRMWARE = "firmware"
_DOWN = "power down"


def power_up(audit):
    """What the boot record says of the run before: whether it ended cleanly (its last record
    says power down) or not (a power cut, a reset, a crash: the board cannot write as the power goes)."""
    last = audit.last
    if last is None:
        text = "power up (a new event log)"
    elif last.kind == POWER and last.text.startswith(_DOWN):
        text = "power up after a clean stop (record %d)" % last.seq
    else:
        text = ("power up after an unclean stop (power cut, reset or crash): the run before ended at record "
                "%d, board %d ms" % (last.seq, last.t_ms))
    return text


def power_down(audit, why, t_ms):
    """The last record of a clean stop (the Raspberry Pi service stopped, a Ctrl-C in maintenance)."""
    return audit.append(POWER, "%s: %s" % (_DOWN, why), "board", t_ms)


def tree_of(boot_text):
    """'production mode, signed, manifest ab12.. tree, data /; power up ...' -> 'signed, manifest ab12..'."""
    head = boot_text.split(" tree, data ")[0]
    cut = head.find(" mode, ")
    return head[cut + 7:] if cut >= 0 else None


def firmware_change(audit, before, now, t_ms):
    """A firmware record when the tree that runs now is not the one the last boot ran (before:
    that boot's record, or None when the board has not seen one since its last check)."""
    old = tree_of(before.text) if before is not None else None
    if old is None or old == now:
        return None
    return audit.append(FIRMWARE, "firmware changed: %s -> %s" % (old, now), "board", t_ms)


class SpaceQuery:
    """Console filter: `get audit_free` answers free= and room= (bytes for records not yet
    exported), exported= (the last record acknowledged by an export) and seq= (the newest)."""

    def __init__(self, audit, link):
        self.audit = audit
        self.link = link

    def __call__(self, msg):
        if msg.verb != "get" or not msg.args or msg.args[0] != "audit_free":
            return False
        got = self.audit.space()
        if got is None:
            self.link.reply_error(msg.seq, "this event log keeps no files", code="bad_args")
            return True
        self.link.reply_ok(msg.seq, free=got[0], room=got[1], exported=self.audit.store.exported_seq(),
                           seq=self.audit.seq)
        return True


class SwitchWatch:
    """After-step hook: the maintenance key switch (read once at boot to choose the mode) looked at
    every `every_ms` while the table runs; each turn is recorded (`maintenance`, the board's own
    record) and shown as a device alert. The mode itself changes only at the next boot."""

    def __init__(self, pin, audit, table, held, control, every_ms=500):
        self.pin = pin
        self.audit = audit
        self.table = table
        self.held = held
        self.control = control
        self.every_ms = every_ms
        self._due = 0

    def __call__(self, now_ms):
        if now_ms < self._due:
            return
        self._due = now_ms + self.every_ms
        held = self.pin.value() == 0
        if held == self.held:
            return
        self.held = held
        text = "%s turned to %s while the table runs (the mode changes at the next boot)" % (
            self.control, "maintenance" if held else "production")
        self.audit.append("maintenance", text, "board", now_ms)
        self.table.device_alert("maintenance", "warn", text, "if nobody with the key did this, call the floor")
