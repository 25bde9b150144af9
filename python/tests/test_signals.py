"""Ctrl-C as Python expects it with the package imported: every blocking wait raises
``KeyboardInterrupt`` at once, an ignored SIGINT stays ignored, engine calls in other
threads stop, and the interpreter exits cleanly while daemon threads are inside engine
calls. Each case runs in a child interpreter of its own, signalled from here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

# A search that runs for 20 s unless it is stopped.
LONG_SEARCH = "isolo_ai.analyze(isolo_ai.Game('igisoro'), time_ms=20000)"


def default_sigint() -> None:
    """SIGINT as a terminal's foreground job has it (a shell starts background jobs, such
    as a test run under ``nohup``, with it ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started(code: str, **popen) -> subprocess.Popen:
    """A child interpreter running `code`, once it has printed its ``ready`` line."""
    popen.setdefault("preexec_fn", default_sigint)
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )
    assert child.stdout.readline().strip() == "ready", child.stderr.read()
    return child


def finished(child: subprocess.Popen, within: float) -> tuple[int, str, str]:
    """The child's exit status and output, failing if it runs past `within` seconds."""
    try:
        out, err = child.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"still running {within} s later\n{out}\n{err}")
    return child.returncode, out, err


WAITS = {
    "event": "threading.Event().wait()",
    "queue": "queue.Queue().get()",
    "lock": "lock = threading.Lock(); lock.acquire(); lock.acquire()",
    "join": "t = threading.Thread(target=time.sleep, args=(30,), daemon=True); t.start(); t.join()",
    "pipe": "r, w = os.pipe(); os.read(r, 1)",
}


@pytest.mark.parametrize("wait", sorted(WAITS))
def test_ctrl_c_interrupts_every_wait_with_the_package_imported(wait):
    code = (
        "import os, queue, threading, time, isolo_ai\n"
        "print('ready', flush=True)\n"
        f"{WAITS[wait]}\n"
    )
    child = started(code)
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    status, _, err = finished(child, within=5)
    assert "KeyboardInterrupt" in err, err
    assert status != 0


def test_ctrl_c_stops_an_engine_call_in_another_thread():
    code = (
        "import threading, time, isolo_ai\n"
        "done = []\n"
        "def search():\n"
        "    try:\n"
        f"        {LONG_SEARCH}\n"
        "    except KeyboardInterrupt:\n"
        "        pass\n"
        "    done.append(time.monotonic())\n"
        "t = threading.Thread(target=search)\n"
        "t.start()\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    threading.Event().wait()\n"
        "except KeyboardInterrupt:\n"
        "    start = time.monotonic()\n"
        "    t.join()\n"
        "    print('stopped', round(done[0] - start, 1), flush=True)\n"
    )
    child = started(code)
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    status, out, err = finished(child, within=10)
    assert status == 0, err
    assert "stopped" in out, out


def test_an_ignored_sigint_stays_ignored():
    """A job started with SIGINT ignored (as `nohup` and shells' background jobs are)
    keeps it ignored: its searches run their full time."""
    code = (
        "import signal, time, isolo_ai\n"
        "assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN\n"
        "print('ready', flush=True)\n"
        "start = time.monotonic()\n"
        "isolo_ai.analyze(isolo_ai.Game('igisoro'), time_ms=1500)\n"
        "print('searched', round(time.monotonic() - start, 1), flush=True)\n"
    )
    child = started(code, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    status, out, err = finished(child, within=10)
    assert status == 0, err
    seconds = float(out.split("searched")[1])
    assert seconds >= 1.2, out


@pytest.mark.parametrize("ending", ["sys.exit(0)", "os.kill(os.getpid(), signal.SIGINT); time.sleep(5)"])
def test_the_interpreter_exits_cleanly_with_daemon_threads_in_engine_calls(ending):
    code = (
        "import os, signal, sys, threading, time, isolo_ai\n"
        "for _ in range(2):\n"
        f"    threading.Thread(target=lambda: {LONG_SEARCH}, daemon=True).start()\n"
        "time.sleep(0.5)\n"
        "print('ready', flush=True)\n"
        f"{ending}\n"
    )
    child = started(code)
    status, _, err = finished(child, within=15)
    expected = 0 if ending.startswith("sys.exit") else -signal.SIGINT
    assert status == expected, (status, err)


def test_ctrl_c_stops_a_pool_evaluation(tmp_path):
    # (A script of its own: the pool's spawned workers import its functions.)
    script = tmp_path / "pool_search.py"
    script.write_text(
        "import multiprocessing, isolo_ai\n"
        "def search(seed):\n"
        "    game = isolo_ai.Game('igisoro')\n"
        "    return isolo_ai.analyze(game, time_ms=20000, seed=seed)['depth']\n"
        "if __name__ == '__main__':\n"
        "    with multiprocessing.get_context('spawn').Pool(2) as pool:\n"
        "        result = pool.map_async(search, range(4))\n"
        "        print('ready', flush=True)\n"
        "        result.get()\n"
    )
    child = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    assert child.stdout.readline().strip() == "ready", child.stderr.read()
    time.sleep(2.0)
    # Ctrl-C in a terminal signals the whole process group: the pool's workers too.
    os.killpg(child.pid, signal.SIGINT)
    status, _, err = finished(child, within=10)
    assert status != 0 and "KeyboardInterrupt" in err, err


def test_an_exit_hook_of_the_programs_own_may_still_call_the_engine():
    # (Registered before the import, so it runs after the package's own exit hook.)
    code = (
        "import atexit\n"
        "atexit.register(lambda: print('counted', __import__('isolo_ai').perft('igisoro', 2), flush=True))\n"
        "import isolo_ai\n"
        "print('ready', flush=True)\n"
    )
    child = started(code)
    status, out, err = finished(child, within=15)
    assert status == 0 and "counted" in out, (status, out, err)
