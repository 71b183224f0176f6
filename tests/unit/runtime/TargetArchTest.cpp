//===- TargetArchTest.cpp - the code target chosen for a device -----------===//
//
// Target::parse reads each arch once (compute capability, cp.async, wgmma);
// getTargetArch: compute capability 9.0 compiles for sm_90a (wgmma) unless
// MGP_NO_WGMMA asks for the portable sm_90; every other capability keeps
// sm_<major><minor>; getDeviceTarget falls back to sm_90 PTX on newer GPUs
// and refuses older ones. The environment readers' switch semantics.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include "compiler/api/Environment.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace mgp;

TEST(Target, ParsedOnce) {
  auto hopper = Target::parse("sm_90a");
  ASSERT_TRUE(bool(hopper));
  EXPECT_EQ(hopper->arch(), "sm_90a");
  EXPECT_EQ(hopper->computeCapability(), 90);
  EXPECT_TRUE(hopper->hasWgmma());
  EXPECT_TRUE(hopper->hasAsyncCopy());
  auto portable = Target::parse("sm_90");
  ASSERT_TRUE(bool(portable));
  EXPECT_FALSE(portable->hasWgmma());
  EXPECT_EQ(Target(), *portable);
  auto ampere = Target::parse("sm_86");
  ASSERT_TRUE(bool(ampere));
  EXPECT_EQ(ampere->computeCapability(), 86);
  auto cpu = Target::parse("cpu");
  ASSERT_TRUE(bool(cpu));
  EXPECT_TRUE(cpu->isCPU());
  EXPECT_EQ(*cpu, Target::cpu());
  EXPECT_FALSE(cpu->hasAsyncCopy());
  auto old = Target::parse("sm_70");
  ASSERT_FALSE(bool(old));
  EXPECT_EQ(llvm::toString(old.takeError()),
            "unsupported GPU architecture 'sm_70' (expected sm_80, sm_86, "
            "sm_89, sm_90, sm_90a or cpu)");
}

TEST(TargetArch, HopperGetsTheWgmmaTarget) {
  EXPECT_EQ(getTargetArch(9, 0, false), "sm_90a");
}

TEST(TargetArch, NoWgmmaKeepsThePortableTarget) {
  EXPECT_EQ(getTargetArch(9, 0, true), "sm_90");
  // MGP_NO_WGMMA: anything but "" and "0" is on.
  for (const char *on : {"1", "yes", "off"}) {
    setenv("MGP_NO_WGMMA", on, 1);
    EXPECT_TRUE(isEnvOn(EnvVar::NoWgmma)) << on;
  }
  for (const char *off : {"", "0"}) {
    setenv("MGP_NO_WGMMA", off, 1);
    EXPECT_FALSE(isEnvOn(EnvVar::NoWgmma)) << off;
  }
  unsetenv("MGP_NO_WGMMA");
  EXPECT_FALSE(isEnvOn(EnvVar::NoWgmma));
}

TEST(TargetArch, OtherCapabilitiesAreUnchanged) {
  EXPECT_EQ(getTargetArch(8, 0, false), "sm_80");
  EXPECT_EQ(getTargetArch(8, 9, false), "sm_89");
  // sm_100a PTX would not load elsewhere either; only 9.0 has wgmma.
  EXPECT_EQ(getTargetArch(10, 0, false), "sm_100");
  EXPECT_EQ(getTargetArch(12, 0, true), "sm_120");
}

TEST(TargetArch, DeviceTargets) {
  DeviceProperties props;
  props.name = "GPU";
  props.computeMajor = 9;
  props.arch = "sm_90a";
  EXPECT_EQ(getDeviceTarget(props)->arch(), "sm_90a");
  props.computeMajor = 12;
  props.arch = "sm_120";
  EXPECT_EQ(getDeviceTarget(props)->arch(), "sm_90") << "PTX the driver JITs";
  props.name = "Tesla T4";
  props.computeMajor = 7;
  props.computeMinor = 5;
  props.arch = "sm_75";
  auto old = getDeviceTarget(props);
  ASSERT_FALSE(bool(old));
  EXPECT_EQ(llvm::toString(old.takeError()),
            "Tesla T4 (sm_75) is not a GPU mgp generates code for: "
            "unsupported GPU architecture 'sm_75' (expected sm_80, sm_86, "
            "sm_89, sm_90, sm_90a or cpu)");
}

TEST(Environment, Switches) {
  for (const char *off : {"off", "OFF", " no ", "0", "false"})
    EXPECT_TRUE(isOffValue(off)) << off;
  for (const char *on : {"on", "1", "", "yes"})
    EXPECT_FALSE(isOffValue(on)) << on;
  unsetenv("MGP_PINNED");
  EXPECT_FALSE(isEnvOff(EnvVar::Pinned)) << "unset is on";
  setenv("MGP_PINNED", "Off", 1);
  EXPECT_TRUE(isEnvOff(EnvVar::Pinned));
  unsetenv("MGP_PINNED");
  // Every variable is in the --help table under its name.
  std::string help = describeEnvironment();
  for (const EnvVarInfo &info : getEnvVars())
    EXPECT_NE(help.find(info.name), std::string::npos) << info.name;
  EXPECT_EQ(getEnvVarInfo(EnvVar::ConvConfig).name,
            std::string("MGP_CONV_CONFIG"));
}
