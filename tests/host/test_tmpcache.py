# The build caches in the temp folder are pruned (feltctl.tmpcache): the newest entries and any used
# recently stay, older ones go -- files and folders alike; entries of other prefixes are untouched.
import os

from feltctl import tmpcache


def _entry(folder, name, age_s, now, is_dir=False):
    path = folder / name
    if is_dir:
        path.mkdir()
        (path / "x.mpy").write_bytes(b"M")
    else:
        path.write_bytes(b"image")
    os.utime(path, (now - age_s, now - age_s))
    return path


def test_prune_keeps_the_newest_and_the_recently_used_and_removes_the_rest(tmp_path):
    now = 1_000_000.0
    for i in range(5):  # 5 old images, ages 1..5 hours
        _entry(tmp_path, "felt-%d.romfs" % i, 3600 * (i + 1), now)
    _entry(tmp_path, "felt-mpy-old", 7200, now, is_dir=True)
    _entry(tmp_path, "felt-busy.romfs", 60, now)  # in use a minute ago
    _entry(tmp_path, "other-9.romfs", 99999, now)  # not ours
    removed = tmpcache.prune(str(tmp_path), "felt-", keep=2, min_age_s=600, now=now)
    # newest two by use: felt-busy (60 s) and felt-0 (1 h); every older one goes (the folder too)
    assert removed == ["felt-1.romfs", "felt-2.romfs", "felt-3.romfs", "felt-4.romfs", "felt-mpy-old"]
    assert sorted(os.listdir(tmp_path)) == ["felt-0.romfs", "felt-busy.romfs", "other-9.romfs"]


def test_a_recent_entry_beyond_keep_stays_and_touch_marks_a_hit(tmp_path):
    now = 2_000_000.0
    a = _entry(tmp_path, "felt-a", 30, now)
    b = _entry(tmp_path, "felt-b", 20, now)
    c = _entry(tmp_path, "felt-c", 7200, now)
    assert tmpcache.prune(str(tmp_path), "felt-", keep=1, min_age_s=600, now=now) == ["felt-c"]
    assert a.exists() and b.exists() and not c.exists()
    old = os.stat(a).st_mtime
    tmpcache.touch(str(a))
    assert os.stat(a).st_mtime > old
    assert tmpcache.prune(str(tmp_path / "missing"), "felt-") == []  # no folder: nothing, no error
