"""Ctrl-C during a long call: ``KeyboardInterrupt`` is raised promptly in the calling
thread and the interpreter stays usable (the long calls run on a worker thread while
the caller polls for signals; python/src/lib.rs, ``interruptible``).

Each case runs in a fresh interpreter (``subprocess``): SIGINT is raised by a timer
thread one second into a call that takes 20 s or more (thirty compositions of twelve
components; a stochastic-batch analysis), and the child reports how long the interrupt took to arrive.
The child then exits, which also ends the worker still computing in the background.
"""

import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import signal, sys, threading, time
    import shiftdp

    # Python's own handler, whatever was inherited: a shell without job control starts
    # background commands with SIGINT ignored, and Python then installs none
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def long_call():
        {call}

    fired = []
    def fire():
        fired.append(time.monotonic())
        signal.raise_signal(signal.SIGINT)

    threading.Timer(1.0, fire).start()
    start = time.monotonic()
    try:
        long_call()
        print("finished", time.monotonic() - start)
    except KeyboardInterrupt:
        print("interrupted", round(time.monotonic() - fired[0], 3))
    # the interpreter is still usable
    print("after", shiftdp.epsilon(1, 1e-5).upper > 4.37)
    sys.stdout.flush()
    """
)

LONG_CALLS = {
    # about 20 s: thirty compositions of twelve distinct components (one forward
    # transform and one direct low-frequency DFT each), 1.2·10^5 steps, at grid 2^-14
    "compose": "for _ in range(30): shiftdp.compose([shiftdp.PoissonGaussian(0.01 + 1e-5 * i, "
    "mu=0.5, count=10**4) for i in range(12)], delta=1e-10, grid=14)",
    "analyze": 'shiftdp.analyze("sgd", delta=1e-5, n=1000, batch=100, steps=200, eta=0.5, '
    'noise="0.01", sensitivity=2, smoothness=1, strong_convexity=0.5)',
}


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_interrupts_a_long_call(name):
    code = CHILD.format(call=LONG_CALLS[name])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    lines = out.stdout.split("\n")
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert lines[0].startswith("interrupted"), out.stdout
    assert float(lines[0].split()[1]) < 3.0, out.stdout  # polled every 50 ms
    assert lines[1] == "after True"
