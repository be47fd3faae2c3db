# The key store's anti-rollback counter (feltctl.board.signing.KeyStore): `feltctl flash --sign` and
# `feltctl sign` take the next counter from it. A board refuses any tree whose counter is below the
# highest it ever activated (felt.security.manifest.check_counter), so the store must never go back.
from feltctl.board.signing import KeyStore


def test_an_explicit_lower_counter_does_not_wind_the_store_back(tmp_path):
    # `--counter 3` after counter 10 was used (re-signing an old build, say) used to store 3: every
    # later default signing got 4, 5, ... -- trees the board (at 10) refuses as rollbacks.
    store = KeyStore(str(tmp_path / "keys"))
    store.create("table1", ["alice"])
    assert store.next_counter("table1") == 1
    store.used_counter("table1", 10)
    assert store.next_counter("table1") == 11
    store.used_counter("table1", 3)
    assert store.next_counter("table1") == 11
    store.used_counter("table1", 11)
    assert store.next_counter("table1") == 12
