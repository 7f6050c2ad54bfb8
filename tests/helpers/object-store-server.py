"""
A throwaway OpenStack Swift for the tests, started by tests/helpers/object-store-server.ts, which writes the
configuration files first: builds the rings of one device, then runs the account, container, object and proxy
servers, each in a process forked from this one, until it is stopped (SIGTERM) or one of them ends.

    python3 object-store-server.py FOLDER ACCOUNT_PORT CONTAINER_PORT OBJECT_PORT

Why one Python process instead of swift-ring-builder (three runs a ring) and the four swift-*-server commands: each of
those imports Swift and eventlet again, a second or more of processor time on a busy two-core machine, and each
server converts the locks that exist after those imports to green ones, which walks every object in memory once a
lock. Here the imports happen once, the locks are converted before there are any, and the servers are forked from
the result, the way Swift forks its own workers. Each server still runs through Swift's run_wsgi, as its command
would, and the rings are built by the library the ring builder command uses.
"""

import json
import os
import signal
import sys
import traceback
from time import time as now

# Green threads first, while almost no lock exists: each server's own patch (in run_wsgi) then finds it done.
import eventlet.patcher

eventlet.patcher.monkey_patch(all=False, socket=True, select=True, thread=True)

from swift.common.ring import RingBuilder  # noqa: E402
from swift.common.wsgi import run_wsgi  # noqa: E402

# Imported before the fork, so that each server finds them loaded.
import swift.account.server  # noqa: E402,F401
import swift.common.middleware.s3api.s3api  # noqa: E402,F401
import swift.common.middleware.tempauth  # noqa: E402,F401
import swift.container.server  # noqa: E402,F401
import swift.obj.server  # noqa: E402,F401
import swift.proxy.server  # noqa: E402,F401

SERVERS = ('account', 'container', 'object', 'proxy')

# The one device, a folder under FOLDER/devices (the configuration files name the same).
DEVICE = 'd1'


class MemoryCache(object):
    """
    What the proxy's memcache client would do, kept in the proxy's own memory (one process: nothing to share), so that
    no memcached has to run. tempauth refuses to work without one, and the proxy keeps what it learns of accounts and
    containers in it. Values are kept as JSON, as memcached keeps them: each read answers a copy.
    """

    def __init__(self):
        self.entries = {}

    def get(self, key, raise_on_error=False):
        entry = self.entries.get(key)
        if entry is None or (entry[1] and entry[1] < now()):
            return None
        return json.loads(entry[0])

    def set(self, key, value, serialize=True, time=0, min_compress_len=0, raise_on_error=False):
        # Memcached's rule: a time of 0 keeps the value, any other counts seconds from now.
        self.entries[key] = (json.dumps(value), time and now() + time)

    def get_multi(self, keys, server_key, raise_on_error=False):
        return [self.get(key) for key in keys]

    def set_multi(self, mapping, server_key, serialize=True, time=0, min_compress_len=0, raise_on_error=False):
        for key, value in mapping.items():
            self.set(key, value, time=time)

    def delete(self, key, server_key=None):
        self.entries.pop(key, None)


def memory_cache_filter(global_conf, **local_conf):
    """The proxy configuration's `cache` filter: one MemoryCache, handed to every request as Swift's cache."""
    cache = MemoryCache()

    def wrap(app):
        def with_cache(env, start_response):
            env['swift.cache'] = cache
            return app(env, start_response)
        return with_cache
    return wrap


def build_rings(folder, ports):
    """One partition, one replica, on the one device: the smallest ring Swift accepts, for each kind of server."""
    for kind in ('account', 'container', 'object'):
        builder = RingBuilder(0, 1, 0)
        builder.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': ports[kind], 'device': DEVICE,
                         'weight': 1})
        builder.rebalance()
        builder.get_ring().save(os.path.join(folder, kind + '.ring.gz'))


def start_server(folder, kind):
    """Forks a process that runs one server as its command would; answers its process id."""
    pid = os.fork()
    if pid != 0:
        return pid
    code = 1
    try:
        code = run_wsgi(os.path.join(folder, kind + '-server.conf'), kind + '-server', verbose=True) or 0
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def write_pids(folder, pids):
    """For the test process's watchdog: who to stop should the test process die without stopping them."""
    path = os.path.join(folder, 'pids')
    with open(path + '.tmp', 'w') as file:
        file.write(' '.join(str(pid) for pid in pids) + '\n')
    os.replace(path + '.tmp', path)


def main():
    folder = sys.argv[1]
    ports = dict(zip(('account', 'container', 'object'), (int(port) for port in sys.argv[2:5])))
    write_pids(folder, [os.getpid()])
    build_rings(folder, ports)
    children = {start_server(folder, kind): kind for kind in SERVERS}
    write_pids(folder, [os.getpid(), *children])

    def stop(code):
        # Nothing the servers hold is kept, so they end at once.
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        sys.exit(code)

    for name in ('SIGTERM', 'SIGINT', 'SIGHUP'):
        signal.signal(getattr(signal, name), lambda *_: stop(0))
    pid, status = os.wait()
    print('object-store-server: the %s server ended (status %d); stopping the others' % (children.pop(pid), status),
          file=sys.stderr, flush=True)
    stop(1)


main()
