# SPDX-License-Identifier: BSD-3-Clause
# doc/: method and format pages, installed with the programs.
dist_doc_DATA += doc/output.md doc/pt2pt.md doc/measurement.md doc/overlap.md doc/collectives.md \
	doc/multirail.md doc/multirail.png
