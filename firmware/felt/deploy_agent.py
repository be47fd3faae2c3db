# Device side of `feltctl flash` (firmware; no hardware, only the filesystem): manifests and
# SHA-256 of firmware trees, inflating and verifying staged files, and atomic activation by
# renaming one pointer file. Two slots /felt_a and /felt_b hold the active and the previous tree;
# /felt.slot names the active one; /boot.py (firmware/boot.py) follows it. The host calls these
# functions through the raw REPL; each answer is one printed line "FELT <json>". MicroPython only
# (os.ilistdir, deflate, kbd_intr): a Raspberry Pi is updated by hardware/raspberry-pi/install.sh.
import os
import io
import sys
import json
import hashlib
import binascii

try:
    import deflate
except ImportError:  # CPython: importable (e.g. by the mpy-cross check), never run
    deflate = None

POINTER = "/felt.slot"
KEYS = "/felt.keys"     # the board's keys (feltctl provision): checked against, never read back
SLOTS = ("a", "b")
MARKER = ".felt-ok"     # written last into a slot; holds its tree hash; no marker = not bootable
TMP = ".tmp"            # suffix of a file being written; renamed once its SHA-256 verifies
ZTMP = ".z"             # suffix of compressed bytes being received
_BUF = 1024
_IS_DIR = 0x4000
PACK = "pack"           # a packed slot's one file (hardware/flashing.md "Packed slots"); firmware/boot.py reads it
PACK_MAGIC = b"FELTPK1 "  # the last 16 bytes: this, then the index's offset in 8 hex digits
INDEX = "index"         # index lines of a pack being written: path, size, sha256, offset, zlib length
VIEW = "/felt_view"     # where commit() mounts a staged pack to check its signature


def answer(obj):
    print("FELT " + json.dumps(obj))


def slot_dir(name):
    return "/felt_" + name


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _is_dir(path):
    try:
        return bool(os.stat(path)[0] & _IS_DIR)
    except OSError:
        return False


def _read_text(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def active():
    """Name of the slot the board boots, or None (no Felt layout yet): the pointer's slot if it
    is bootable, else the other one if that is -- the same choice firmware/boot.py makes."""
    name = _read_text(POINTER)
    if name not in SLOTS:
        return None
    for cand in (name, other(name)):
        if valid(cand):
            return cand
    return None


def other(name):
    return SLOTS[1] if name == SLOTS[0] else SLOTS[0]


def valid(name):
    return name in SLOTS and _exists(slot_dir(name) + "/" + MARKER)


def file_hash(path):
    """(size, sha256 hex) of a file, read in small pieces so a big file needs no big buffer."""
    with open(path, "rb") as f:
        return _hash_stream(f)


def _hash_stream(stream, limit=-1):
    """(size, sha256 hex) of what a stream gives, to its end or `limit` bytes."""
    h = hashlib.sha256()
    buf = bytearray(_BUF)
    mv = memoryview(buf)
    size = 0
    while size != limit:
        n = stream.readinto(mv[:_BUF if limit < 0 else min(_BUF, limit - size)])
        if not n:
            break
        h.update(mv[:n])
        size += n
    return size, binascii.hexlify(h.digest()).decode()


def walk(root):
    """Relative paths of every file under root except deploy bookkeeping, sorted."""
    out = []
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = list(os.ilistdir(root + "/" + rel if rel else root))
        except OSError:
            continue
        for entry in entries:
            name = entry[0]
            path = rel + "/" + name if rel else name
            if entry[1] & _IS_DIR:
                stack.append(path)
            elif not (name == MARKER or name.endswith(TMP) or name.endswith(ZTMP)):
                out.append(path)
    out.sort()
    return out


def manifest(root):
    """[[path, size, sha256 hex], ...] of a tree, sorted by path."""
    return [[rel] + list(file_hash(root + "/" + rel)) for rel in walk(root)]


def tree_hash(entries):
    """One SHA-256 over a whole manifest; the host computes the same from its files."""
    h = hashlib.sha256()
    for rel, size, digest in entries:
        h.update(("%s\0%d\0%s\n" % (rel, size, digest)).encode())
    return binascii.hexlify(h.digest()).decode()


def free_bytes():
    try:
        st = os.statvfs("/")
        return st[0] * st[3]
    except (OSError, AttributeError):
        return -1


def total_bytes():
    try:
        st = os.statvfs("/")
        return st[0] * st[2]
    except (OSError, AttributeError):
        return -1


def _block():
    try:
        return os.statvfs("/")[0]
    except (OSError, AttributeError):
        return 0


# littlefs2 as MicroPython's rp2 port formats it (ports/rp2/modules/_boot.py: VfsLfs2(progsize=256)
# on 4 KB blocks; extmod/vfs_lfsx.c: cache 1024, mtime attribute on every file): a file of up to
# block/8 bytes is inlined in its folder's metadata; a larger one takes whole blocks (CTZ list: a
# block after the first gives 8 of its bytes to pointers); a folder is a metadata pair (2 blocks),
# one more pair for every ~3/8 block of entries (name, ~28 bytes of tags, inlined data). Checked
# against MicroPython's own littlefs on the rp2 geometry (tests/host/test_flash_fit.py).
def lfs_file_blocks(size, block):
    if size <= block // 8:
        return 0
    if size <= block:
        return 1
    return 1 + (size - block + block - 9) // (block - 8)


def lfs_dir_blocks(entries, block):
    """Blocks of one folder's metadata: entries = [(name length, file size or -1 for a folder)]."""
    meta = 0
    for name_len, size in entries:
        meta += name_len + 28 + (size if 0 <= size <= block // 8 else 0)
    pair = block * 3 // 8
    return 2 * max(1, (meta + pair - 1) // pair)


def lfs_tree_blocks(files, block):
    """Blocks a tree of files takes: files = {relative path: size}; its own folder included."""
    dirs = {"": []}
    total = 0
    for rel in files:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs[d] = []
                dirs["/".join(parts[:i - 1])].append((len(parts[i - 1]), -1))
        dirs["/".join(parts[:-1])].append((len(parts[-1]), files[rel]))
        total += lfs_file_blocks(files[rel], block)
    for entries in dirs.values():
        total += lfs_dir_blocks(entries, block)
    return total


def _sizes(root):
    out = {}
    stack = [""]
    while stack:
        rel = stack.pop()
        for entry in list(os.ilistdir(root + "/" + rel if rel else root)):
            path = rel + "/" + entry[0] if rel else entry[0]
            if entry[1] & _IS_DIR:
                stack.append(path)
                out[path + "/"] = 0  # an empty folder still has its pair
            else:
                out[path] = os.stat(root + "/" + path)[6]
    return out


def _used(root):
    """Bytes a folder takes on the flash (lfs_tree_blocks: the littlefs2 cost, folders included)."""
    block = _block() or 1
    if not _is_dir(root):
        return 0
    sizes = _sizes(root)
    files = dict((rel, n) for rel, n in sizes.items() if not rel.endswith("/"))
    for rel in sizes:
        if rel.endswith("/"):
            files[rel + ".keep"] = 0  # an empty folder: its pair, and a zero-size entry (inlined)
    return block * lfs_tree_blocks(files, block)


def _board():
    try:
        return os.uname().machine
    except AttributeError:
        return sys.platform


def hello(expect):
    """State of the board; the active manifest too unless its tree hash equals `expect`."""
    name = active()
    entries = slot_manifest(name) if valid(name) else []
    th = tree_hash(entries)
    root_boot = file_hash("/boot.py")[1] if _exists("/boot.py") else None
    answer({"block": _block(), "staged": _used(slot_dir(other(name))), "pack": True, "total": total_bytes(),
            "layout": "pack" if valid(name) and packed(name) else "files",
            "active": name if valid(name) else None, "tree": th,
            "previous": other(name) if name and valid(other(name)) else None,
            "manifest": None if th == expect else entries, "boot": root_boot,
            "free": free_bytes(), "board": _board(), "impl": sys.implementation.name,
            "mpy": getattr(sys.implementation, "_mpy", 0)})


def _makedirs(path):
    cut = path.rfind("/")
    if cut <= 0:
        return
    parent = path[:cut]
    if not _is_dir(parent):
        _makedirs(parent)
        os.mkdir(parent)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _target(rel):
    """Absolute paths (the loader /boot.py) go where they say; others into the staging slot."""
    if rel.startswith("/"):
        return rel
    return slot_dir(other(active())) + "/" + rel


def _copy(src, dst):
    buf = bytearray(_BUF)
    mv = memoryview(buf)
    with open(src, "rb") as fin:
        with open(dst, "wb") as fout:
            while True:
                n = fin.readinto(buf)
                if not n:
                    break
                fout.write(mv[:n])


def _finish(tmp, path, size, digest):
    got = file_hash(tmp)
    if got != (size, digest):
        _remove(tmp)
        raise ValueError("felt-deploy: hash mismatch for %s: wrote %d bytes sha256 %s, expected %d bytes %s"
                         % (path, got[0], got[1], size, digest))
    os.rename(tmp, path)


# ---- packed slots (hardware/flashing.md "Packed slots") ----------------------------------------
# A slot of plain files takes ~736 KB of a Pico's 1408 KB littlefs (folders and files past 512 bytes
# cost whole blocks): two do not fit. A packed slot is one file: every file's bytes one after the
# other (stored, not compressed: imports read them at littlefs speed), then an index
# ("path\tsize\tsha256\toffset" a line), then PACK_MAGIC and the index's offset. firmware/boot.py
# mounts it (PackFS) and the firmware imports from it.
def packed(name):
    return _exists(slot_dir(name) + "/" + PACK)


def pack_index(path):
    """[[path, size, sha256, offset], ...] of a pack file, in its order."""
    with open(path, "rb") as f:
        f.seek(-16, 2)
        foot = f.read(16)
        if foot[:8] != PACK_MAGIC:
            raise ValueError("felt-deploy: %s is not a Felt pack" % path)
        f.seek(int(foot[8:], 16))
        text = f.read().decode()[:-16]
    out = []
    for line in text.split("\n"):
        if line:
            rel, size, digest, off = line.split("\t")
            out.append([rel, int(size), digest, int(off)])
    return out


def _member_hash(f, offset, size):
    """(size, sha256 hex) of the `size` bytes at `offset` of an open pack file."""
    f.seek(offset)
    return _hash_stream(f, size)


def slot_manifest(name):
    """The manifest of a slot, files or pack; a pack's members are hashed again."""
    if not packed(name):
        return manifest(slot_dir(name))
    path = slot_dir(name) + "/" + PACK
    index = pack_index(path)
    index.sort()
    with open(path, "rb") as f:
        return [[e[0]] + list(_member_hash(f, e[3], e[1])) for e in index]


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _append(src, dst, offset, n):
    """Copy n bytes of file src from offset to the end of file dst; returns where they start in dst."""
    start = _size(dst)
    buf = bytearray(_BUF)
    mv = memoryview(buf)
    with open(src, "rb") as fin:
        fin.seek(offset)
        with open(dst, "ab") as fout:
            while n > 0:
                k = fin.readinto(mv[:min(n, _BUF)])
                if not k:
                    raise ValueError("felt-deploy: %s ends early" % src)
                fout.write(mv[:k])
                n -= k
    return start


def _index_line(dst, rel, size, digest, offset):
    with open(dst + "/" + INDEX, "a") as f:
        f.write("%s\t%d\t%s\t%d\n" % (rel, size, digest, offset))


def stage_pack(keep_z):
    """Open the staging slot for a pack: invalidate and empty it, then copy into its pack the
    unchanged members (keep_z) from the active slot's pack."""
    cur = active()
    dst = slot_dir(other(cur))
    _remove(dst + "/" + MARKER)
    removed = 0
    if _is_dir(dst):
        removed = len(walk(dst))
        _rmtree(dst)
    os.mkdir(dst)
    keep = _paths(keep_z)
    if keep:
        src = slot_dir(cur) + "/" + PACK
        have = dict((e[0], e) for e in pack_index(src))
        for rel in keep:
            e = have[rel]
            _index_line(dst, rel, e[1], e[2], _append(src, dst + "/" + PACK + TMP, e[3], e[1]))
    answer({"slot": other(cur), "copied": len(keep), "removed": removed})


def putm(rel, size, digest, zlen, window):
    """One member of the staged pack: its zlib bytes arrive as in putb, are inflated onto the end
    of the pack and checked there (size and SHA-256), then get their index line. A mismatch fails
    the deploy (the host then frees the slot: abandon)."""
    dst = slot_dir(other(active()))
    ztmp = dst + "/member" + ZTMP
    _receive(ztmp, zlen, window)
    pack = dst + "/" + PACK + TMP
    start = _size(pack)
    try:
        with open(ztmp, "rb") as z:
            _inflate_to(z, pack, "ab")
    finally:
        _remove(ztmp)
    with open(pack, "rb") as f:
        got = _member_hash(f, start, size + 1)  # one byte more: a longer member shows
    if got != (size, digest):
        raise ValueError("felt-deploy: hash mismatch for %s/%s: wrote %d bytes sha256 %s, expected %d bytes %s"
                         % (dst, rel, got[0], got[1], size, digest))
    _index_line(dst, rel, size, digest, start)


def _seal(dst):
    """Finish a staged pack: index and footer appended, then renamed into place."""
    pack = dst + "/" + PACK + TMP
    start = _append(dst + "/" + INDEX, pack, 0, os.stat(dst + "/" + INDEX)[6])
    with open(pack, "ab") as f:
        f.write(PACK_MAGIC + ("%08x" % start).encode())
    os.rename(pack, dst + "/" + PACK)
    _remove(dst + "/" + INDEX)


def _loader_packfs():
    """The PackFS class of the loader on the board (/boot.py, as this deploy left it), without booting."""
    ns = {"__name__": "felt_loader"}
    with open("/boot.py") as f:
        exec(f.read(), ns)
    return ns["pack_fs"]()


def stage(all_z, keep_z):
    """Open the staging slot (the one not booted): invalidate it, so it stops being a rollback
    target; delete every file the new tree lacks (all_z: zlib+base64 of the new tree's paths,
    one a line); copy in from the active slot the unchanged files (keep_z) unless identical."""
    cur = active()
    dst = slot_dir(other(cur))
    _remove(dst + "/" + MARKER)
    if not _is_dir(dst):
        os.mkdir(dst)
    wanted = {}
    for rel in _paths(all_z):
        wanted[rel] = True
    removed = 0
    for rel in walk(dst):
        if rel not in wanted:
            os.remove(dst + "/" + rel)
            removed += 1
    _prune_dirs(dst)
    copied = 0
    for rel in _paths(keep_z):
        target = dst + "/" + rel
        want = file_hash(slot_dir(cur) + "/" + rel)
        if _exists(target) and file_hash(target) == want:
            continue
        _makedirs(target)
        _copy(slot_dir(cur) + "/" + rel, target + TMP)
        _finish(target + TMP, target, want[0], want[1])
        copied += 1
    answer({"slot": other(cur), "copied": copied, "removed": removed})


def _paths(blob):
    if not blob:
        return []
    return [p for p in _inflate_bytes(binascii.a2b_base64(blob)).decode().split("\n") if p]


def _prune_dirs(path):
    empty = True
    for entry in list(os.ilistdir(path)):
        sub = path + "/" + entry[0]
        if entry[1] & _IS_DIR:
            if _prune_dirs(sub):
                os.rmdir(sub)
            else:
                empty = False
        else:
            empty = False
    return empty


def _inflate_bytes(data):
    return deflate.DeflateIO(io.BytesIO(data), deflate.ZLIB).read()


def _inflate_to(stream, tmp, mode="wb"):
    z = deflate.DeflateIO(stream, deflate.ZLIB)
    buf = bytearray(_BUF)
    mv = memoryview(buf)
    with open(tmp, mode) as out:
        while True:
            n = z.readinto(buf)
            if not n:
                break
            out.write(mv[:n])


def putb(rel, size, digest, zlen, window):
    """One file whose zlib bytes (zlen of them) follow on the console as raw binary, in windows
    of `window` bytes that the board grants with \x01 -- the flow control of raw paste, without
    its need to escape bytes. Gathered in <path>.z, inflated into <path>.tmp, size and SHA-256
    checked, then renamed into place."""
    path = _target(rel)
    _makedirs(path)
    _receive(path + ZTMP, zlen, window)
    try:
        with open(path + ZTMP, "rb") as z:
            _inflate_to(z, path + TMP)
    except OSError:
        _remove(path + TMP)
        raise
    finally:
        _remove(path + ZTMP)
    _finish(path + TMP, path, size, digest)


SILENCE_MS = 2000  # putb gives up when the host sends no file byte for this long (issue 18 item 3)


class Abort(Exception):
    """The host stopped sending file bytes (Ctrl-C, killed, link gone): putb gives up."""


def _receive(dest, n, window):
    # Ctrl-C is off while the bytes arrive (0x03 is data). Every announced byte is read even
    # after a write fails (full flash), so the console never sees file bytes as REPL input.
    # Windows collect in a 1 KB buffer: fewer, larger flash writes. With Ctrl-C off only a
    # deadline can end the wait: SILENCE_MS without a byte and the agent gives up (the file is
    # removed, Ctrl-C is on again, the raw REPL answers), so a host that went away mid-file
    # (Ctrl-C, killed, unplugged) no longer wedges the board until a power cycle.
    import micropython
    import select

    inp = sys.stdin.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    out = sys.stdout.buffer
    buf = bytearray(window * max(1, _BUF // window))
    mv = memoryview(buf)
    failed = None
    micropython.kbd_intr(-1)
    try:
        f = open(dest, "wb")
    except OSError as e:
        f, failed = None, e
    try:
        out.write(b"\x01\x01")
        got = 0
        fill = 0
        while got < n:
            k = min(window, n - got)
            _read_exact(inp, mv[fill:fill + k], poll, got)
            got += k
            fill += k
            if got < n:
                out.write(b"\x01")
            if (fill == len(buf) or got == n) and failed is None:
                try:
                    f.write(mv[:fill])
                except OSError as e:
                    failed = e
            if fill == len(buf):
                fill = 0
    except Abort as e:
        failed = e
    finally:
        micropython.kbd_intr(3)
        if f is not None:
            f.close()
    if failed is not None:
        _remove(dest)
        if isinstance(failed, Abort):
            raise ValueError("felt-deploy: aborted: %s" % failed)
        raise failed


def _read_exact(inp, mv, poll, got):
    have = 0
    while have < len(mv):
        if not poll.poll(SILENCE_MS):
            raise Abort("no file bytes for %d ms after %d of them (the host stopped sending)"
                        % (SILENCE_MS, got + have))
        n = inp.readinto(mv[have:])
        if n:
            have += n


def _rmtree(path):
    for entry in list(os.ilistdir(path)):
        sub = path + "/" + entry[0]
        if entry[1] & _IS_DIR:
            _rmtree(sub)
        else:
            os.remove(sub)
    os.rmdir(path)


def reclaim():
    """Free what an unfinished deploy left (issue 18 item 1): every slot the board would not
    boot (no marker: stage() removed it first, commit() writes it last) and the loader's and the
    pointer's temporary files. A slot with its marker stays (the rollback target). Returns
    [[folder, bytes freed], ...]. Called by the host when a deploy fails, and by the firmware at
    boot (felt.runtime.app.run) before it writes anything, so a half-written slot never fills
    the flash under the table."""
    cur = active()
    out = []
    for name in SLOTS:
        folder = slot_dir(name)
        if name == cur or valid(name) or not _is_dir(folder):
            continue
        before = free_bytes()
        _rmtree(folder)
        out.append([folder, free_bytes() - before])
    for leftover in ("/boot.py" + ZTMP, "/boot.py" + TMP, POINTER + TMP):
        _remove(leftover)
    return out


def unfinished():
    """Slot folders an unfinished deploy left (no marker): what reclaim() would free."""
    cur = active()
    return [slot_dir(n) for n in SLOTS if n != cur and not valid(n) and _is_dir(slot_dir(n))]


def abandon():
    """The host gives up a deploy: free its staging slot (reclaim); the board boots what it booted."""
    answer({"freed": reclaim(), "active": active(), "free": free_bytes()})


def _write_atomic(path, text):
    with open(path + TMP, "w") as f:
        f.write(text)
    os.rename(path + TMP, path)


def commit(expect):
    """Verify the whole staged tree against `expect` (its tree hash), mark it bootable, then
    switch to it with one rename of the pointer file. Before that rename the board boots the
    old tree, after it the new one: there is no moment in between. The anti-rollback counter
    goes up only after the switch (issue 12 item 4): raised first, a power cut before the
    switch left the board booting the old tree below its own counter -- refused."""
    cur = active()
    name = other(cur)
    if _exists(slot_dir(name) + "/" + INDEX):
        _seal(slot_dir(name))
    entries = slot_manifest(name)
    got = tree_hash(entries)
    if got != expect:
        raise ValueError("felt-deploy: staged tree does not verify: tree hash %s, expected %s" % (got, expect))
    activated = _checked(name)
    _write_atomic(slot_dir(name) + "/" + MARKER, got)
    _write_atomic(POINTER, name)
    activated()  # a cut before this: the new tree boots, and its boot check raises the counter
    answer({"active": name, "previous": cur if valid(cur) else None, "tree": got})


def _checked(name):
    """_signature_check of a slot; a packed one is mounted at VIEW for it."""
    if not (packed(name) and _exists(KEYS)):
        return _signature_check(slot_dir(name))
    try:
        import vfs
    except ImportError:
        vfs = os
    vfs.mount(_loader_packfs()(slot_dir(name) + "/" + PACK), VIEW)
    try:
        return _signature_check(VIEW)
    finally:
        vfs.umount(VIEW)


def _signature_check(root):
    """felt.security (hardware/security.md section 3): on a board with keys (/felt.keys) the staged
    tree must carry a manifest signed with a release key the board trusts, not older than any tree ever
    activated, matching file for file; a refusal leaves the running firmware booting. The check
    comes from the running firmware, or from the staged tree when the running one predates it.
    Returns what to call once the pointer names the tree: it raises the anti-rollback counter."""
    if not _exists(KEYS):
        return _nothing
    try:
        from felt.security import bootcheck, ManifestError
    except ImportError:
        sys.path.insert(0, root)
        try:
            from felt.security import bootcheck, ManifestError
        except ImportError:
            raise ValueError("felt-deploy: refused: this board has keys but the tree carries no felt.security "
                             "to check its signature")
        finally:
            sys.path.pop(0)
    try:
        m = bootcheck.check_slot(root)
    except ManifestError as e:
        raise ValueError("felt-deploy: %s" % e)
    if m is None:
        return _nothing
    # the anti-rollback counter and the tree's release-key changes (rotation, revocation)
    return lambda: bootcheck.accept(m)


def _nothing():
    pass


def rollback():
    """Boot the previous tree again (one rename); the current one stays for a later rollback."""
    cur = active()
    prev = other(cur)
    if not valid(prev):
        raise ValueError("felt-deploy: no previous firmware on the board to roll back to")
    activated = _checked(prev)  # a signed board does not go back below its rollback counter
    _write_atomic(POINTER, prev)
    activated()
    answer({"active": prev, "previous": cur, "tree": _read_text(slot_dir(prev) + "/" + MARKER)})


def _version(name):
    text = _member_text(name, "felt/__init__.py") if packed(name) else _read_text(slot_dir(name) + "/felt/__init__.py")
    text = text or ""
    for line in text.split("\n"):
        if line.startswith("VERSION"):
            return line.split("=", 1)[1].strip().strip("\"'")
    return None


def _member_text(name, rel):
    path = slot_dir(name) + "/" + PACK
    for e in pack_index(path):
        if e[0] == rel:
            with open(path, "rb") as f:
                f.seek(e[3])
                return f.read(e[1]).decode()
    return None


def info():
    """What `feltctl info` shows; `modified` when the active tree no longer matches the tree
    hash recorded at activation (files changed behind the deploy's back)."""
    name = active()
    ok = valid(name)
    entries = slot_manifest(name) if ok else []
    recorded = _read_text(slot_dir(name) + "/" + MARKER) if ok else None
    signed = ok and [e for e in entries if e[0] == "felt.manifest"]
    answer({"unfinished": unfinished(),
            "active": name if ok else None, "tree": recorded, "files": len(entries),
            "manifest": signed[0][2] if signed else None, "layout": "pack" if ok and packed(name) else "files",
            "modified": ok and tree_hash(entries) != recorded,
            "version": _version(name) if ok else None,
            "previous": other(name) if name and valid(other(name)) else None,
            "free": free_bytes(), "board": _board(), "impl": sys.implementation.name,
            "platform": sys.platform, "cwd": os.getcwd()})


def files(folder):
    """Manifest of a data folder (e.g. /hands) for `feltctl export`; [] when it is absent."""
    if not _is_dir(folder):
        answer([])
        return
    answer(manifest(folder))


def read(path, offset, n):
    """Up to n bytes of a file from offset, base64 (binary-safe through the REPL)."""
    if path.endswith("felt.keys"):
        raise ValueError("felt-deploy: refused: the board's keys are never read back")
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(n)
    answer(binascii.b2a_base64(data).decode().strip())
