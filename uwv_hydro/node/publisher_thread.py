# Copyright 2026 The uwv_hydro Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
The update's messages published by a thread of their own, off the update's path.

A Fast DDS publish usually takes ~10-20 us, but now and then much longer (p99 2.2 ms
measured inside the node's update at 1 kHz), and the update thread waited for it.
The update now computes its messages and enqueues them (:meth:`PublisherThread.publish`
inside :meth:`PublisherThread.cycle`); at the end of the cycle the batch is handed to
this thread in one ``SimpleQueue.put`` (C, thread-safe), which wakes it once.  It publishes the
batches in order, each batch's messages in the order the update produced them, so the
order of every topic and every stamp are those the update computed.  A message is
never changed once enqueued (each is a new object or a copy of serialised bytes).

At most one cycle's batch is outstanding: handing over a batch while the previous one
is still being published waits for it (a semaphore).  So a starved publisher thread
never releases a burst of several cycles' messages at once: a burst stays what one
update could publish before (``max_catchup_steps`` odometry messages, within the
publishers' history depth of 10; a longer burst would overwrite samples a reliable
reader has not acknowledged yet, and they would be lost).  In a normal cycle the
previous batch went out long before, and the update does not wait.

Outside a cycle (an executor callback, e.g. wrench mode's ``publish_on: odometry``),
and always before :meth:`PublisherThread.start` (the node starts the thread only for
its wall-clock update thread; under sim time the update runs on the executor, in
lock-step with /clock), :meth:`PublisherThread.publish` publishes at once, as before.
A publish that raises (e.g. during shutdown) is reported through ``on_error`` and the
thread carries on.

With :attr:`PublisherThread.profile` (a :class:`uwv_hydro.node.cycle_profile.CycleProfile`,
the node's ``cycle_profile``), each batch starts with the time the update ended, and
the thread records its own wake-up and every publish's duration per topic, and marks
its batch as the ``publisher`` section.  Without it: one test per cycle on each thread.
"""
from contextlib import contextmanager
import queue
import threading
import time
from typing import Callable, Optional


class PublisherThread:
    """Publish the update's messages from a dedicated thread, in the update's order."""

    def __init__(self, on_error: Optional[Callable[[BaseException], None]] = None,
                 name: str = 'uwv_hydro_publisher'):
        self.on_error = on_error
        self._batches = queue.SimpleQueue()
        # one batch outstanding at most: acquired by the update, released when published
        self._outstanding = threading.Semaphore(1)
        self._batch = None
        self._owner = None
        self._started = False
        #: A CycleProfile timing the batches (set before :meth:`start`), or None.
        self.profile = None
        #: Messages published by the thread.
        self.published = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start the thread: from now on a cycle's messages are published by it."""
        self._thread.start()
        self._started = True

    @property
    def running(self) -> bool:
        """Return whether the thread is alive."""
        return self._thread.is_alive()

    @contextmanager
    def cycle(self):
        """Collect the messages published by this thread inside; hand them over at the end."""
        if not self._started:  # no publisher thread: everything is published at once
            yield
            return
        self._batch, self._owner = [], threading.get_ident()
        try:
            yield
        finally:
            batch, self._batch, self._owner = self._batch, None, None
            if batch:
                if self.profile is not None:  # the update's end, for publisher_wake
                    batch.insert(0, (None, time.monotonic_ns()))
                self._hand_over(batch)

    def _hand_over(self, batch) -> None:
        # waits only while the previous batch is not out
        while not self._outstanding.acquire(timeout=0.5):
            if not self._thread.is_alive():  # no thread left: publish at once
                for publisher, msg in batch:
                    if publisher is not None:  # not the profile's time mark
                        publisher.publish(msg)
                return
        self._batches.put(batch)

    def publish(self, publisher, msg) -> None:
        """Enqueue ``msg`` for ``publisher`` inside a cycle of this thread; else publish now."""
        if self._owner == threading.get_ident() and self._batch is not None:
            self._batch.append((publisher, msg))
        else:
            publisher.publish(msg)

    def stop(self, timeout: float = 2.0) -> None:
        """Publish what is enqueued, then stop the thread and wait for it."""
        if self._started:
            self._batches.put(None)  # after every batch enqueued so far
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        if not self._thread.is_alive():
            self._started = False  # a later cycle (none is expected) publishes at once

    def _run(self) -> None:
        get = self._batches.get
        while True:
            batch = get()  # blocks without the interpreter lock until a batch comes
            if batch is None:  # stop(): everything before it is published
                return
            if self.profile is not None:
                self._publish_profiled(batch)
            else:
                for publisher, msg in batch:
                    self._publish_one(publisher, msg)
            self._outstanding.release()

    def _publish_one(self, publisher, msg) -> None:
        try:
            publisher.publish(msg)
            self.published += 1
        except Exception as exc:  # noqa: B902 - the thread must keep running
            if self.on_error is not None:
                self.on_error(exc)

    def _publish_profiled(self, batch) -> None:
        """Publish ``batch`` (first item: the update's end), timing each publish."""
        profile, clock = self.profile, time.monotonic_ns
        profile.enter('publisher')
        for publisher, msg in batch:
            if publisher is None:  # (None, the update's end): this thread's wake-up
                profile.add('publisher_wake', clock() - msg)
                continue
            start = clock()
            self._publish_one(publisher, msg)
            profile.add(profile.publish_stage(publisher), clock() - start)
        profile.leave()
