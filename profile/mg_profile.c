/* SPDX-License-Identifier: BSD-3-Clause */
/* libmgprofile: the communication profile of any MPI program (`mpigauge
 * profile`, doc/applications.md). A PMPI library, preloaded into the ranks
 * (LD_PRELOAD): every MPI call it knows is counted, with its bytes by size
 * class (the next power of two, the sizes the benchmarks sweep), the size
 * of its communicator, the datatype of a reduction and the time spent in
 * it; with the time from MPI_Init's return to MPI_Finalize's call. Each
 * rank writes its profile as one JSON object to MG_PROFILE_DIR/rank-N.json
 * at MPI_Finalize (before the library's own, which some libraries never
 * leave); the front-end merges them. Built once per ABI family with that
 * family's mpicc (profile/local.mk); its own cost per call is two clock
 * reads and a table look-up (bench/profile_overhead.sh measures it).
 *
 * Bytes, by call kind (what the benchmark of that kind calls its size):
 * point-to-point and one-sided: the message; broadcast, reduce, allreduce,
 * scan, reduce_scatter_block: the buffer (count x type size); gather,
 * scatter, allgather, alltoall: one rank's block (the send count); the v
 * and w forms: the mean block of the send (or receive) counts. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mg_profile_calls.h"

#define PF_SLOTS 8192 /* distinct (call, size class, communicator size, type) */
#define PF_TYPES 32   /* distinct reduction types named */

typedef struct {
    int used;
    int call, comm_size, type;
    uint64_t size_class;
    uint64_t count, bytes;
    double seconds;
} pf_slot;

static pf_slot slots[PF_SLOTS];
static char type_names[PF_TYPES][MPI_MAX_OBJECT_NAME];
static int ntypes;
static long dropped; /* calls that found no free slot */
static int active;   /* between MPI_Init's return and MPI_Finalize */
static int locking;  /* MPI_THREAD_MULTIPLE: the table under a lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double t_init, t_start;

double mg_pf_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The next power of two at or above b; 0 for 0. */
static uint64_t size_class(uint64_t b)
{
    uint64_t c = 1;
    if (b == 0)
        return 0;
    while (c < b && c < (UINT64_C(1) << 62))
        c <<= 1;
    return c;
}

/* The index of a reduction's type name, -1 for none. Under the caller's
 * lock when locking. */
static int type_index(MPI_Datatype t)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    if (t == MPI_DATATYPE_NULL)
        return -1;
    if (PMPI_Type_get_name(t, name, &len) != MPI_SUCCESS || len == 0)
        snprintf(name, sizeof name, "derived");
    for (int i = 0; i < ntypes; ++i)
        if (strcmp(type_names[i], name) == 0)
            return i;
    if (ntypes == PF_TYPES)
        return PF_TYPES - 1; /* the last one stands for the rest */
    snprintf(type_names[ntypes], sizeof type_names[ntypes], "%s", name);
    return ntypes++;
}

const char *mg_pf_call_name(int call)
{
    static const char *const names[] = {
#define MG_PF_NAME(id, name) name,
        MG_PF_CALLS(MG_PF_NAME)
#undef MG_PF_NAME
    };
    return call >= 0 && call < MG_PF_NCALLS ? names[call] : "?";
}

int mg_pf_comm_size(MPI_Comm comm)
{
    int n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

void mg_pf_add(int call, int n, uint64_t bytes, MPI_Datatype rtype, double seconds)
{
    int t;
    uint64_t c = size_class(bytes), h;
    if (!active)
        return;
    if (locking)
        pthread_mutex_lock(&lock);
    t = type_index(rtype);
    h = ((uint64_t)call * 1000003u) ^ (c * 2654435761u) ^ ((uint64_t)n * 40503u) ^
        (uint64_t)(t + 1);
    for (int probe = 0; probe < PF_SLOTS; ++probe) {
        pf_slot *s = &slots[(h + (uint64_t)probe) % PF_SLOTS];
        if (!s->used) {
            *s = (pf_slot){.used = 1, .call = call, .comm_size = n, .type = t, .size_class = c};
        } else if (s->call != call || s->size_class != c || s->comm_size != n || s->type != t) {
            continue;
        }
        s->count++;
        s->bytes += bytes;
        s->seconds += seconds;
        goto done;
    }
    dropped++;
done:
    if (locking)
        pthread_mutex_unlock(&lock);
}

uint64_t mg_pf_bytes(int count, MPI_Datatype t)
{
    int size = 0;
    if (count <= 0 || t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &size) != MPI_SUCCESS || size < 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* The mean of n counts (the v and w collectives' block), times the type. */
uint64_t mg_pf_mean_bytes(const int *counts, int n, MPI_Datatype t)
{
    uint64_t sum = 0;
    if (counts == NULL || n <= 0)
        return 0;
    for (int i = 0; i < n; ++i)
        sum += counts[i] > 0 ? (uint64_t)counts[i] : 0;
    return mg_pf_bytes(1, t) * sum / (uint64_t)n;
}

static void started(int provided)
{
    locking = provided == MPI_THREAD_MULTIPLE;
    t_start = mg_pf_now();
    active = 1;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc, provided = MPI_THREAD_SINGLE;
    t_init = mg_pf_now();
    rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        PMPI_Query_thread(&provided);
    started(provided);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc;
    t_init = mg_pf_now();
    rc = PMPI_Init_thread(argc, argv, required, provided);
    started(rc == MPI_SUCCESS ? *provided : MPI_THREAD_SINGLE);
    return rc;
}

/* A JSON string of s (quotes, backslashes and control characters escaped). */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The CPUs this rank may run on, as a list ("0-3,8"). */
static void cpu_list(char *out, size_t len)
{
    cpu_set_t set;
    size_t k = 0;
    out[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && k + 16 < len; ++c) {
        int e = c;
        if (!CPU_ISSET(c, &set))
            continue;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            ++e;
        k += (size_t)snprintf(out + k, len - k, k ? ",%d" : "%d", c);
        if (e > c)
            k += (size_t)snprintf(out + k, len - k, "-%d", e);
        c = e;
    }
}

static void write_header(FILE *f, int rank, int size, double t_end)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME], cpus[512];
    int len = 0, version = 0, subversion = 0;
    lib[0] = host[0] = '\0';
    PMPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    PMPI_Get_processor_name(host, &len);
    PMPI_Get_version(&version, &subversion);
    cpu_list(cpus, sizeof cpus);
    fprintf(f, "{\"type\":\"profile_rank\",\"rank\":%d,\"nranks\":%d,\"pid\":%ld,\"mpi_library\":",
            rank, size, (long)getpid());
    json_string(f, lib);
    fprintf(f, ",\"mpi_version\":\"%d.%d\",\"host\":", version, subversion);
    json_string(f, host);
    fprintf(f, ",\"binding\":");
    json_string(f, cpus);
    fprintf(f,
            ",\"init_s\":%.9f,\"run_s\":%.9f,\"thread_multiple\":%s,\"dropped\":%ld,"
            "\"calls\":[",
            t_start - t_init, t_end - t_start, locking ? "true" : "false", dropped);
}

static void write_profile(void)
{
    const char *dir = getenv("MG_PROFILE_DIR");
    char path[PATH_MAX], tmp[PATH_MAX + 16];
    int rank = 0, size = 1, first = 1;
    double t_end = mg_pf_now();
    FILE *f;
    if (dir == NULL || !*dir)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof path, "%s/rank-%d.json", dir, rank);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stderr, "libmgprofile: rank %d: cannot write %s: %s\n", rank, tmp, strerror(errno));
        return;
    }
    write_header(f, rank, size, t_end);
    for (int i = 0; i < PF_SLOTS; ++i) {
        const pf_slot *s = &slots[i];
        if (!s->used)
            continue;
        fprintf(f,
                "%s{\"call\":\"%s\",\"size_class\":%llu,\"comm_size\":%d,\"count\":%llu,"
                "\"bytes\":%llu,\"seconds\":%.9f",
                first ? "" : ",", mg_pf_call_name(s->call), (unsigned long long)s->size_class,
                s->comm_size, (unsigned long long)s->count, (unsigned long long)s->bytes,
                s->seconds);
        if (s->type >= 0) {
            fprintf(f, ",\"datatype\":");
            json_string(f, type_names[s->type]);
        }
        fputc('}', f);
        first = 0;
    }
    fprintf(f, "]}\n");
    /* complete or not at all: the front-end reads only the renamed file */
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "libmgprofile: rank %d: cannot write %s: %s\n", rank, path,
                strerror(errno));
        remove(tmp);
    }
}

int MPI_Finalize(void)
{
    if (active)
        write_profile();
    active = 0;
    return PMPI_Finalize();
}
