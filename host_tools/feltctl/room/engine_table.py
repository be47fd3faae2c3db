# A headless engine table (host tools): the real controller and engine (felt.table.controller.Table)
# driven by direct inputs -- shoe reads, antenna arrivals and departures, actions -- without drivers
# or HAL, with the real publisher, signed messages and outbox, on its own MQTT connection. What the
# floor's load benchmark runs a hundred of and the demo's floor mode a few of. Its dealer sometimes
# gives the first card to the wrong seat (misdeal_every): a DEAL-8 proposal the floor rules on from
# the dashboard; until then the table waits.
import hashlib
import time

from felt.room import publisher
from felt.room.ack import AckCheck
from felt.room.desk_link import RoomDesk
from felt.room.outbox import Outbox
from felt.security import secrecy
from felt.security.auth import FloorGate
from felt.security.floordesk import FloorDesk
from felt.sim.runner import card_uid, registry
from felt.table.controller import Table, TableConfig
from feltctl.room.keys import FastSigner
from feltctl.room.mqtt import TableLink


def owner_key(name):
    """A demo/bench table's device signing key (made up from its name: not for a real room)."""
    return hashlib.sha256(b"felt-demo-table-" + name.encode()).digest()


def _hex(uid):
    return "".join(["%02X" % b for b in uid])


class EngineTable:
    """name, room, url: where it publishes; rng: random.Random; floor_keys: {name: key} for floor
    commands from the room (None: none); misdeal_every: every Nth hand starts with a misdeal."""

    def __init__(self, name, room, url, rng, floor_keys=None, misdeal_every=0, seats=6, delay_ms=secrecy.DELAY_MS):
        self.name = name
        self.rng = rng
        self.misdeal_every = misdeal_every
        self.pub = None
        self.t = Table(TableConfig(game="holdem", structure="no_limit", seats=seats, sb=50, bb=100), registry(),
                       log=self._log, history=self._hist)
        self.box = Outbox()
        self.bytes = 0
        put = self.box.put

        def counted(seq, kind, payload):
            self.bytes += len(payload)
            put(seq, kind, payload)
        self.box.put = counted
        sgn = FastSigner(owner_key(name))  # the same key as message.signer(device key): the feed's
        self.pub = publisher.Publisher(name, room, name, self.t, sgn, self.box, boot_ms=int(time.time() * 1000))
        # the hole-card secrecy of the table (commitments, hand end, the reveal after delay_ms, the
        # sealed broadcast), its records published through the publisher, its guard on every text
        self.feed = secrecy.SecretFeed(name, hashlib.sha256(b"bkey" + name.encode()).digest(), self._nonce,
                                       public=self.pub.feed, broadcast=self.pub.broadcast, delay_ms=delay_ms,
                                       signer=sgn)
        self.pub.guard = lambda text: self.feed.clean(text, self.t)
        self._n = 0
        self.desk = None
        if floor_keys:
            nonce = [0]

            def nonces(n):
                nonce[0] += 1
                return hashlib.sha256(b"%s-%d-%f" % (name.encode(), nonce[0], time.time())).digest()[:n]
            self.desk = RoomDesk(FloorDesk(FloorGate(name, floor_keys, nonces), self.t, None, floor_keys, name))
        # the floor's `stored` acknowledgements are checked with the same floor keys (felt.room.ack)
        self.link = TableLink(url, self.box, room, name, inbox=self.desk.inbox if self.desk else None,
                              client_id="table-" + name, acks=AckCheck(name, floor_keys) if floor_keys else None)
        if self.desk is not None:
            self.desk.reply = self.link.reply
        self.placed = []
        for s in range(1, seats + 1):
            self.t.sit(s, 20000)
        self.plan = self._hands()

    def _nonce(self, n):
        self._n += 1
        return hashlib.sha256(b"%s-%d-%f" % (self.name.encode(), self._n, time.time())).digest()[:n]

    def _log(self, line):
        if self.pub is not None:
            self.pub.event(line)

    def _hist(self, text):
        if self.pub is not None:
            self.pub.hand(text)

    def _card(self, card, loc):
        uid = card_uid(card)
        self.t.shoe_card(uid)
        self.t.antenna(("card-arrived", loc, _hex(uid)))
        self.placed.append((loc, uid))

    def _gather(self):
        for loc, uid in self.placed:  # the dealer gathers the cards
            self.t.antenna(("card-left", loc, _hex(uid)))
        self.placed = []

    def _hands(self):
        t = self.t
        n = 0
        while True:
            for s in range(t.config.seats):
                if t.stacks[s] < 2000:
                    t.sit(s + 1, 20000)  # a rebuy between hands
            t.new_hand(int(time.time() * 1000))
            n += 1
            yield
            if self.misdeal_every and n % self.misdeal_every == 0:
                self._card(self.rng.randrange(52), "seat%d" % t.setup.seats[1])  # DEAL-8: the wrong seat first
                yield
                while t.pending():
                    yield  # the floor rules from the dashboard (or the dealer does)
                self._gather()
                if t.state != "playing":
                    continue
            for _step in self._deal_and_bet():
                yield
            self._gather()
            yield

    def _deal_and_bet(self):
        t = self.t
        deck = list(range(52))
        self.rng.shuffle(deck)
        k = 0
        for _r in range(2):
            for s in list(t.setup.seats):
                self._card(deck[k], "seat%d" % s)
                k += 1
                yield
        for street in range(4):
            if street:
                if t.state != "playing":
                    return
                self._card(deck[k], "burn")
                k += 1
                for _n in range(3 if street == 1 else 1):
                    self._card(deck[k], "board")
                    k += 1
                yield
            for _a in range(20):
                h = t.hand
                if t.state != "playing" or h.actor is None:
                    break
                seat = t.setup.seats[h.actor]
                legal = h.legal()
                if legal.call and self.rng.random() < 0.25 and h.live_count() > 2:
                    t.act(seat, "fold")
                else:
                    t.act(seat, "call" if legal.call else "check")
                yield

    def step(self):
        """One input (or, waiting for a ruling, none), then the messages it made go out."""
        now = int(time.time() * 1000)
        self.pub.now_ms = now  # stamped with the wall clock: the floor's latency is measurable
        if self.desk is not None:
            self.desk.step(now)
        next(self.plan)
        self.feed.observe(self.t, now)
        self.pub.observe(now)
        self.link.pump()

    def close(self):
        self.link.close()
