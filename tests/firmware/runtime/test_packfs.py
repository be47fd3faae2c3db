# Packed firmware slots (issue 18 item 2, hardware/flashing.md "Packed slots"): a 2 MB Pico's 1408 KB
# of littlefs cannot hold two slots of plain files, so the deploy agent (felt/deploy_agent.py) writes
# a slot as one pack file -- every file's bytes, an index, a footer -- and the loader
# (firmware/boot.py, PackFS) mounts it and the firmware imports from it. Here: a pack written with
# the agent's own steps is read back by the loader's PackFS, and MicroPython imports through it.
import os
import sys

import check
import kit
from check import Skip, eq, raises

from felt import deploy_agent as agent

MEMBERS = [
    ("pk/__init__.py", b"X = 1\n"),
    ("pk/mod.py", b'from pk import X\n\ndef hello():\n    return "packed %d" % X\n'),
    ("version.py", b'VERSION = "9.9"\n'),
]


def loader():
    """The loader's names (PackFS, RUN) without booting: boot.py boots only as __main__."""
    ns = {"__name__": "felt_loader"}
    with open(check.repo_path("firmware/boot.py")) as f:
        exec(f.read(), ns)
    return ns


def write_pack(tag):
    """A pack built with the agent's steps: members appended (_append), index lines, then _seal."""
    root = kit.tmp_root("pack_" + tag)
    os.mkdir(root)
    for rel, data in MEMBERS:
        with open(root + "/member", "wb") as f:
            f.write(data)
        at = agent._append(root + "/member", root + "/" + agent.PACK + agent.TMP, 0, len(data))
        agent._index_line(root, rel, len(data), "0" * 64, at)
    os.remove(root + "/member")
    agent._seal(root)
    return root


def test_a_pack_written_by_the_agent_lists_its_members_and_the_loader_sees_files_and_folders():
    root = write_pack("list")
    eq(sorted(os.listdir(root)), [agent.PACK])  # index and temporary pack are gone
    index = agent.pack_index(root + "/" + agent.PACK)
    eq([e[0] for e in index], [m[0] for m in MEMBERS])
    eq([e[3] for e in index], [0, len(MEMBERS[0][1]), len(MEMBERS[0][1]) + len(MEMBERS[1][1])])
    eq([e[1] for e in index], [len(m[1]) for m in MEMBERS])
    fs = loader()["pack_fs"]()(root + "/" + agent.PACK)
    eq(fs.stat("/pk/mod.py")[6], len(MEMBERS[1][1]))
    eq(fs.stat("/pk/mod.py")[0], 0x8000)
    eq(fs.stat("/pk")[0], 0x4000)
    eq(fs.stat("/")[0], 0x4000)
    with raises(OSError):
        fs.stat("/pk/missing.py")
    with raises(OSError):
        fs.stat("/p")  # a prefix of a folder's name is not a folder
    eq(sorted(fs.ilistdir("/")), [("pk", 0x4000, 0, 0), ("version.py", 0x8000, 0, len(MEMBERS[2][1]))])
    eq(sorted(e[0] for e in fs.ilistdir("/pk")), ["__init__.py", "mod.py"])
    fs.chdir("/pk")
    eq(fs.getcwd(), "/pk")
    eq(fs.stat("mod.py")[6], len(MEMBERS[1][1]))  # relative to the folder it is in
    with raises(OSError):
        fs.open("/version.py", "wb")  # read-only
    kit.rm_tree(root)


def test_a_file_that_is_not_a_pack_is_refused_by_the_agent_and_the_loader():
    root = kit.tmp_root("pack_bad")
    os.mkdir(root)
    with open(root + "/pack", "wb") as f:
        f.write(b"\x00" * 40)
    with raises(ValueError, match="is not a Felt pack"):
        agent.pack_index(root + "/pack")
    with raises(OSError):
        loader()["pack_fs"]()(root + "/pack")
    kit.rm_tree(root)


def test_a_member_reads_as_its_own_bytes_only_whole_in_pieces_and_as_text():
    root = write_pack("read")
    fs = loader()["pack_fs"]()(root + "/" + agent.PACK)
    with fs.open("/pk/mod.py", "rb") as f:
        eq(f.read(), MEMBERS[1][1])  # not a byte of the next member
        eq(f.read(), b"")
    got = b""
    buf = bytearray(7)
    with fs.open("/pk/mod.py", "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            got += bytes(buf[:n])
    eq(got, MEMBERS[1][1])
    eq(fs.open("/version.py").read(), MEMBERS[2][1].decode())  # text mode: a str
    index = agent.pack_index(root + "/" + agent.PACK)
    with open(root + "/" + agent.PACK, "rb") as f:
        eq(agent._member_hash(f, index[1][3], index[1][1])[0], len(MEMBERS[1][1]))
    kit.rm_tree(root)


def test_micropython_imports_from_a_mounted_pack():
    if not check.MICROPYTHON:
        raise Skip("vfs.mount is MicroPython's")
    try:
        import vfs
    except ImportError:
        vfs = os
    if not hasattr(vfs, "mount"):
        raise Skip("this port has no vfs.mount")
    root = write_pack("import")
    fs = loader()["pack_fs"]()(root + "/" + agent.PACK)
    vfs.mount(fs, "/felt_pack_test")
    sys.path.insert(0, "/felt_pack_test")
    try:
        import pk.mod

        eq(pk.mod.hello(), "packed 1")
        eq(sorted(os.listdir("/felt_pack_test/pk")), ["__init__.py", "mod.py"])
    finally:
        sys.path.remove("/felt_pack_test")
        for name in ("pk", "pk.mod"):
            sys.modules.pop(name, None)
        vfs.umount("/felt_pack_test")
    kit.rm_tree(root)
