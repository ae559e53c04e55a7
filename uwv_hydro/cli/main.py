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
``python -m uwv_hydro`` / ``uwv-hydro``: dispatch to the subcommand modules.

Each subcommand lives in its own module under :mod:`uwv_hydro.cli` and exposes
``add_parser(subparsers)``, which registers its parser and sets ``func(args) -> int``.
"""
import argparse
import importlib
import os
import re
import sys

from uwv_hydro import __version__
from uwv_hydro.cli.help_format import DocHelpFormatter
from uwv_hydro.description.errors import DescriptionError

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = (
    'uwv_hydro.cli.check_cmd',
    'uwv_hydro.cli.wrench_cmd',
    'uwv_hydro.cli.simulate_cmd',
    'uwv_hydro.cli.replay_cmd',
    'uwv_hydro.cli.fit_cmd',
    'uwv_hydro.cli.sweep_cmd',
    'uwv_hydro.cli.demo_cmd',
    'uwv_hydro.cli.export_sdf_cmd',
    'uwv_hydro.cli.manoeuvre_cmd',
    'uwv_hydro.cli.topic_cmd',
)


class NumberFriendlyParser(argparse.ArgumentParser):
    """
    An ArgumentParser that reads '-1e+16', '-.5e3' or '-inf' as numbers, not options.

    argparse's own test only knows '-1' and '-1.5'; subparsers inherit this class and its
    help formatter (plain text from the docstrings, defaults shown).
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault('formatter_class', DocHelpFormatter)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(
            r'^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$', re.IGNORECASE)


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every subcommand registered."""
    parser = NumberFriendlyParser(
        prog='uwv-hydro',
        description='Hydrostatics and hydrodynamics for underwater vehicles (ROS 2).')
    parser.add_argument('--version', action='version', version='%(prog)s ' + __version__)
    sub = parser.add_subparsers(dest='command', metavar='COMMAND')
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv=None) -> int:
    """Run the command line; return the process exit code (2 for invalid input)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except DescriptionError as exc:
        print('error: %s' % exc, file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`uwv-hydro check ... | head`): no traceback, and no
        # second error when Python flushes stdout at exit (Python docs, SIGPIPE note)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
