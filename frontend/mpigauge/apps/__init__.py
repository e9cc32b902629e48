# SPDX-License-Identifier: BSD-3-Clause
"""real applications: communication profiles (profile, mpip), the profile as a
weighted suite with a predicted verdict (predict), an application run as a
configuration (app); `mpigauge profile`, `app`."""
