# pt2pt/: point-to-point benchmark descriptors.
bin_PROGRAMS += pt2pt/mpigauge_latency pt2pt/mpigauge_bw pt2pt/mpigauge_bibw
pt2pt_mpigauge_latency_SOURCES = pt2pt/latency.c pt2pt/pt2pt.h
pt2pt_mpigauge_latency_LDADD = $(MG_LDADD)
pt2pt_mpigauge_bw_SOURCES = pt2pt/bw.c pt2pt/pt2pt.h
pt2pt_mpigauge_bw_LDADD = $(MG_LDADD)
pt2pt_mpigauge_bibw_SOURCES = pt2pt/bibw.c pt2pt/pt2pt.h
pt2pt_mpigauge_bibw_LDADD = $(MG_LDADD)
