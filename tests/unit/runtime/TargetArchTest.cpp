//===- TargetArchTest.cpp - the code target chosen for a device -----------===//
//
// getTargetArch: compute capability 9.0 compiles for sm_90a (wgmma) unless
// MGP_NO_WGMMA asks for the portable sm_90; every other capability keeps
// sm_<major><minor>.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include <gtest/gtest.h>

using namespace mgp;

TEST(TargetArch, HopperGetsTheWgmmaTarget) {
  EXPECT_EQ(getTargetArch(9, 0, nullptr), "sm_90a");
  EXPECT_EQ(getTargetArch(9, 0, ""), "sm_90a");
  EXPECT_EQ(getTargetArch(9, 0, "0"), "sm_90a");
}

TEST(TargetArch, NoWgmmaKeepsThePortableTarget) {
  EXPECT_EQ(getTargetArch(9, 0, "1"), "sm_90");
  EXPECT_EQ(getTargetArch(9, 0, "yes"), "sm_90");
}

TEST(TargetArch, OtherCapabilitiesAreUnchanged) {
  EXPECT_EQ(getTargetArch(8, 0, nullptr), "sm_80");
  EXPECT_EQ(getTargetArch(8, 9, nullptr), "sm_89");
  // sm_100a PTX would not load elsewhere either; only 9.0 has wgmma.
  EXPECT_EQ(getTargetArch(10, 0, nullptr), "sm_100");
  EXPECT_EQ(getTargetArch(12, 0, "1"), "sm_120");
}
