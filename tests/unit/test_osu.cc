// SPDX-License-Identifier: BSD-3-Clause
// The OSU drop-in's command lines (mpi/osu/mg_osu.c): OSU's options into
// mpigauge's, exactly, for -T and -D; OSU's -D rows (mg_osu_ddt_rows); the
// refusals with their messages.
extern "C" {
#include "mg_osu.h"
}

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace
{

// mpigauge's command line for an OSU one, joined by spaces ("" and the
// message in err on a refusal).
std::string translate(const char *name, std::vector<std::string> args, std::string *err = nullptr,
                      mg_osu *keep = nullptr)
{
    std::vector<char *> argv;
    args.insert(args.begin(), name);
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    mg_osu o;
    char buf[512];
    if (mg_osu_translate(mg_osu_find(name), (int)args.size(), argv.data(), &o, buf, sizeof buf) !=
        0) {
        if (err)
            *err = buf;
        return "";
    }
    std::string out;
    for (int i = 1; i < o.argc; ++i)
        out += (i > 1 ? " " : "") + std::string(o.argv[i]);
    if (keep)
        *keep = o;
    else
        mg_osu_free(&o);
    return out;
}

} // namespace

TEST(Osu, DdtRowsAreOsuSizesWithTheBytesTheirTypeCarries)
{
    unsigned long long size[8], sent[8];
    ASSERT_EQ(mg_osu_ddt_rows(3, 64, 8, 4, size, sent, 8), 4); // 4 holds no whole stride
    EXPECT_EQ(std::vector<unsigned long long>(size, size + 4),
              (std::vector<unsigned long long>{8, 16, 32, 64}));
    EXPECT_EQ(std::vector<unsigned long long>(sent, sent + 4),
              (std::vector<unsigned long long>{4, 8, 16, 32}));
    ASSERT_EQ(mg_osu_ddt_rows(1, 4, 0, 0, size, sent, 8), 3); // contiguous: all of it
    EXPECT_EQ(sent[0], 1ULL);
    EXPECT_EQ(sent[2], 4ULL);
    EXPECT_EQ(mg_osu_ddt_rows(1, 1ULL << 40, 0, 0, size, sent, 8), 8); // at most cap
    EXPECT_EQ(mg_osu_ddt_rows(1, 32, 64, 4, size, sent, 8), 0);
    EXPECT_EQ(mg_osu_ddt_rows(1, ~0ULL, 0, 0, size, sent, 8), 8); // no overflow at the top
}

TEST(Osu, TypeIsTheElementOfCollectivesAndTheKeptVariantOfLatency)
{
    EXPECT_EQ(translate("osu_allreduce", {"-m", "1:16", "-T", "MPI_INT"}),
              "--columns osu -m 4:16 -i 1000 --iterations-large 100 -x 100 --warmup-large 10 "
              "-T int");
    mg_osu o;
    EXPECT_EQ(translate("osu_latency", {"-T", "mpi_float", "-m", "8"}, nullptr, &o),
              "--columns osu -m 4:8 -i 10000 --iterations-large 1000 -x 100 --warmup-large 10 "
              "-T float");
    EXPECT_STREQ(o.keep, "datatype=float");
    EXPECT_STREQ(o.mpi_type, "MPI_FLOAT");
    mg_osu_free(&o);
    // the accumulates take OSU's MPI_CHAR by default; the atomics no sizes
    EXPECT_EQ(translate("osu_acc_latency", {}),
              "--columns osu -m 1:4194304 -i 10000 --iterations-large 1000 -x 100 "
              "--warmup-large 10 -T char");
    EXPECT_EQ(translate("osu_fop_latency", {"-m", "64", "-T", "mpi_int"}),
              "--columns osu -i 10000 --iterations-large 1000 -x 100 --warmup-large 10 -T int");
    std::string err;
    EXPECT_EQ(translate("osu_allreduce", {"-T", "all"}, &err), "");
    EXPECT_NE(err.find("launch once per type"), std::string::npos) << err;
    EXPECT_EQ(translate("osu_put_latency", {"-T", "mpi_int"}, &err), "");
    EXPECT_NE(err.find("datatypes (-T): not taken"), std::string::npos) << err;
    EXPECT_EQ(translate("osu_allreduce", {"-m", "2", "-T", "mpi_int"}, &err), "");
    EXPECT_EQ(err, "-m 2: no size holds one MPI_INT (4 bytes)");
}

TEST(Osu, DdtSendsTheBytesOfEachOsuSizeInMpigaugesLayout)
{
    mg_osu o;
    EXPECT_EQ(translate("osu_bw", {"-D", "vect:8:4", "-m", "4:64", "-i", "10"}, nullptr, &o),
              "--columns osu -m 4,8,16,32 -i 10 --iterations-large 10 -x 10 --warmup-large 2 "
              "-D vector:4:8");
    EXPECT_STREQ(o.keep, "datatype=vector:4:8/char");
    EXPECT_EQ(o.ddt_rows, 4);
    EXPECT_EQ(o.ddt_size[0], 8ULL);
    mg_osu_free(&o);
    EXPECT_EQ(translate("osu_alltoall", {"--ddt", "CONT", "-m", "2"}),
              "--columns osu -m 1,2 -i 1000 --iterations-large 100 -x 100 --warmup-large 10 "
              "-T char -D contiguous");
    std::string err;
    EXPECT_EQ(translate("osu_allreduce", {"-D", "cont"}, &err), "");
    EXPECT_NE(err.find("derived datatypes (-D): under the OSU names on osu_latency"),
              std::string::npos)
        << err;
    EXPECT_EQ(translate("osu_ibcast", {"-D", "cont"}, &err), "");
    EXPECT_NE(err.find("run mpigauge_ibcast with its own options"), std::string::npos) << err;
    EXPECT_EQ(translate("osu_latency", {"-D", "vect:2:4"}, &err), "");
    EXPECT_EQ(err, "-D vect:2:4: a vector is vect:STRIDE:BLOCK, with 1 <= BLOCK <= STRIDE (bytes)");
    EXPECT_EQ(translate("osu_latency", {"-D", "vect:8"}, &err), "");
    EXPECT_EQ(translate("osu_latency", {"-D", "indx:/tmp/f"}, &err), "");
    EXPECT_NE(err.find("indexed layouts read from a file"), std::string::npos) << err;
    EXPECT_EQ(translate("osu_latency", {"-D", "vect:64:4", "-m", "32"}, &err), "");
    EXPECT_EQ(err, "-D vect:64:4: no size of -m holds one stride (64 bytes)");
    EXPECT_EQ(translate("osu_bcast", {"-D", "cont", "-T", "mpi_int"}, &err), "");
    EXPECT_EQ(err, "-D with -T mpi_int: derived datatypes of MPI_CHAR only under the OSU names");
}

TEST(Osu, TailTakesOsusDefaultPercentilesOrTheList)
{
    EXPECT_EQ(translate("osu_barrier", {"-z", "-i", "10"}),
              "--columns osu -i 10 --iterations-large 10 -x 100 --warmup-large 100 -z 50,90,99");
    EXPECT_EQ(translate("osu_latency", {"-m", "8", "-z99,99.9"}),
              "--columns osu -m 1:8 -i 10000 --iterations-large 1000 -x 100 --warmup-large 10 "
              "-z 99,99.9");
    EXPECT_EQ(translate("osu_latency", {"-m", "8", "--tail-lat=50"}),
              "--columns osu -m 1:8 -i 10000 --iterations-large 1000 -x 100 --warmup-large 10 "
              "-z 50");
}

// What OSU refuses is refused, with OSU's message: counts past its int, -m
// on the sizeless names (a good -m still changes nothing there), -D names
// that only start like OSU's.
TEST(Osu, BadValuesAreRefusedAsOsuRefusesThem)
{
    std::string err;
    EXPECT_EQ(translate("osu_latency", {"-x", "2147483648"}, &err), "");
    EXPECT_EQ(err, "-x 2147483648: Invalid Number of Warmup Iterations");
    EXPECT_EQ(translate("osu_latency", {"-i", "99999999999999999999"}, &err), "");
    EXPECT_EQ(err, "-i 99999999999999999999: Invalid Number of Iterations");
    EXPECT_NE(translate("osu_latency", {"-x", "2147483647", "-i", "2147483647"}), "");
    EXPECT_EQ(translate("osu_barrier", {"-m", "bad"}, &err), "");
    EXPECT_EQ(err, "-m bad: Invalid Message Size");
    EXPECT_EQ(translate("osu_fop_latency", {"-m", "1:x"}, &err), "");
    EXPECT_EQ(err, "-m 1:x: Invalid Message Size");
    EXPECT_EQ(translate("osu_barrier", {"-m", "64", "-i", "10"}),
              translate("osu_barrier", {"-i", "10"}));
    for (const char *d : {"contxyz", "vectfoo:8:4", "indxfoo", "vect8:4"}) {
        EXPECT_EQ(translate("osu_latency", {"-D", d}, &err), "") << d;
        EXPECT_EQ(err, std::string("-D ") + d +
                           ": Invalid ddt type. Valid ddt types [cont, vect, indx]");
    }
    EXPECT_NE(translate("osu_latency", {"-D", "CONT"}), "");
}

// mpigauge's -o FILE works under the OSU names as --output FILE does: no
// OSU program has a letter o, so it passes on as given
TEST(Osu, OwnOutputPassesOn)
{
    std::string err;
    const std::string plain = translate("osu_latency", {"-m", "8"});
    EXPECT_EQ(translate("osu_latency", {"-o", "out.jsonl", "-m", "8"}), plain + " -o out.jsonl");
    EXPECT_EQ(translate("osu_latency", {"-oout.jsonl", "-m", "8"}), plain + " -oout.jsonl");
    EXPECT_EQ(translate("osu_allreduce", {"-o", "a.jsonl"}),
              translate("osu_allreduce", {}) + " -o a.jsonl");
    EXPECT_EQ(translate("osu_latency", {"-o"}, &err), "");
    EXPECT_EQ(err, "option requires an argument -- 'o'");
    EXPECT_EQ(translate("osu_latency", {"-q"}, &err), "");
    EXPECT_EQ(err, "invalid option -- 'q'");
}
