/* SPDX-License-Identifier: BSD-3-Clause */
// Unit tests for util/mg_secret: which environment variable names the run
// record redacts.
#include "mg_secret.h"
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace
{

TEST(Secret, CredentialsOfLaunchersAndLibrariesAreSecrets)
{
    EXPECT_TRUE(mg_env_is_secret("SLURM_JWT"));
    EXPECT_TRUE(mg_env_is_secret("SLURM_JWT=eyJhbGciOi"));
    EXPECT_TRUE(mg_env_is_secret("OMPI_MCA_plm_ssh_password=x"));
    EXPECT_TRUE(mg_env_is_secret("OMPI_MCA_my_PASSWD"));
    EXPECT_TRUE(mg_env_is_secret("UCX_IB_TOKEN=1"));
    EXPECT_TRUE(mg_env_is_secret("UCX_AUTHTOKEN=1")); // contains TOKEN
    EXPECT_TRUE(mg_env_is_secret("FI_API_KEY=abc"));
    EXPECT_TRUE(mg_env_is_secret("FI_APIKEY=abc"));
    EXPECT_TRUE(mg_env_is_secret("I_MPI_ACCESSKEY=abc"));
    EXPECT_TRUE(mg_env_is_secret("PMIX_SECRET_FILE=/x"));
    EXPECT_TRUE(mg_env_is_secret("HYDRA_CREDENTIALS=x"));
    EXPECT_TRUE(mg_env_is_secret("MV2_SSH_KEYS=x"));
    EXPECT_TRUE(mg_env_is_secret("slurm_jwt=lower case too"));
    EXPECT_TRUE(mg_env_is_secret("KEY"));
}

TEST(Secret, SettingsAreKept)
{
    EXPECT_FALSE(mg_env_is_secret("UCX_IB_PKEY=0x7fff")); // a partition key: a setting
    EXPECT_FALSE(mg_env_is_secret("OMPI_MCA_btl=self,vader"));
    EXPECT_FALSE(mg_env_is_secret("UCX_TLS=sm,self"));
    EXPECT_FALSE(mg_env_is_secret("SLURM_JOB_ID=42"));
    EXPECT_FALSE(mg_env_is_secret("MPIR_CVAR_CH4_NETMOD=ucx"));
    EXPECT_FALSE(mg_env_is_secret("OMPI_MCA_monkey=1"));    // KEY inside a word
    EXPECT_FALSE(mg_env_is_secret("SLURM_JOB_NAME=token")); // the value does not count
    EXPECT_FALSE(mg_env_is_secret(""));
    EXPECT_FALSE(mg_env_is_secret("__="));
}

// Control variables (MPI_T cvars): the rule on every value, the name only
// for strings.
TEST(Secret, ControlVariables)
{
    EXPECT_TRUE(mg_cvar_is_secret("mca_base_env_list", "AWS_SECRET_ACCESS_KEY=abc123", 1));
    EXPECT_TRUE(mg_cvar_is_secret("mca_base_env_list", "X=1;SLURM_JWT=abc", 1));
    EXPECT_TRUE(mg_cvar_is_secret("some_int", "DB_PASS=1", 0)); // any type, by its value
    EXPECT_TRUE(mg_cvar_is_secret("plm_rsh_pass_libpath", "/opt/lib", 1));
    EXPECT_FALSE(mg_cvar_is_secret("MPIR_CVAR_CH4_OFI_ENABLE_MR_PROV_KEY", "1", 0));
    EXPECT_FALSE(mg_cvar_is_secret("mca_base_env_list", "OMP_NUM_THREADS=2", 1));
    EXPECT_FALSE(mg_cvar_is_secret("btl", "self,vader", 1));
    EXPECT_FALSE(mg_cvar_is_secret("btl", "", 1));
}

} // namespace

// The vectors the front-end's rule is tested on too (tests/fixtures/secrets.txt).
TEST(Secret, SharedVectors)
{
    std::ifstream f(MG_FIXTURE_DIR "/secrets.txt");
    ASSERT_TRUE(f.good());
    std::string line;
    int n = 0;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream in(line);
        std::string want, var;
        in >> want;
        std::getline(in >> std::ws, var);
        const size_t eq = var.find('=');
        const int got = mg_env_is_secret(var.c_str()) ||
                        (eq != std::string::npos && mg_env_value_has_secret(var.c_str() + eq + 1));
        EXPECT_EQ(got, want == "secret" ? 1 : 0) << var;
        ++n;
    }
    EXPECT_GE(n, 30);
}
