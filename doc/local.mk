# SPDX-License-Identifier: BSD-3-Clause
# doc/: method and format pages, installed with the programs.
dist_doc_DATA += doc/output.md doc/pt2pt.md doc/measurement.md doc/overlap.md doc/collectives.md doc/onesided.md \
	doc/threads.md doc/startup.md doc/datatypes.md doc/osu.md \
	doc/develop.md \
	doc/multirail.md doc/multirail.png doc/ranks_sweep.png

# The option tables of README.md and doc/multirail.md are made from the
# programs' own rows (`--help --format json`): `make option-tables` rewrites
# them in the source tree; tests/option_tables.sh (make check) fails when
# they differ from the programs of this build.
OPTION_DOCS = README.md doc/multirail.md
EXTRA_DIST += doc/option_tables.py
option-tables: all
	cd $(srcdir) && $(PYTHON) doc/option_tables.py \
	    --bindir $(abs_top_builddir) --write $(OPTION_DOCS)
.PHONY: option-tables
