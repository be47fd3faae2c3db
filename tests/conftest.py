# pytest glue shared by all tests: firmware tests signal a skip with check.Skip (they must also
# run under MicroPython, which has no pytest); turn it into a real pytest skip here.
import pytest

import check


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    outcome = yield
    excinfo = outcome.excinfo
    if excinfo is not None and issubclass(excinfo[0], check.Skip):
        outcome.force_exception(pytest.skip.Exception(str(excinfo[1]), _use_item_location=True))
