#include "api/storage/csi_translation.h"

#include <gtest/gtest.h>

namespace schedref::api::csitranslation {
namespace {

TEST(CsiTranslation, NamesOfTheSevenTranslators) {
  EXPECT_EQ(InTreePluginName("awsElasticBlockStore"), "kubernetes.io/aws-ebs");
  EXPECT_EQ(InTreePluginName("cinder"), "kubernetes.io/cinder");
  EXPECT_EQ(InTreePluginName("rbd"), "");
  EXPECT_EQ(InTreePluginName("csi"), "");
  EXPECT_EQ(CsiDriverName("kubernetes.io/aws-ebs"), "ebs.csi.aws.com");
  EXPECT_EQ(CsiDriverName("kubernetes.io/gce-pd"), "pd.csi.storage.gke.io");
  EXPECT_EQ(CsiDriverName("kubernetes.io/azure-disk"), "disk.csi.azure.com");
  EXPECT_EQ(CsiDriverName("kubernetes.io/cinder"), "cinder.csi.openstack.org");
  EXPECT_EQ(CsiDriverName("kubernetes.io/portworx-volume"), "pxd.portworx.com");
  EXPECT_EQ(CsiDriverName("kubernetes.io/rbd"), "");
}

// aws_ebs_test.go TestKubernetesVolumeIDToEBSVolumeID.
TEST(CsiTranslation, EbsVolumeIds) {
  struct Case {
    std::string in;
    std::string want;  // "" : an error
  };
  for (const Case& c : std::initializer_list<Case>{
           {"vol-123", "vol-123"},
           {"aws://us-east-1a/vol-abc", "vol-abc"},
           {"aws:///vol-abc", "vol-abc"},
           {"aws://us-east-1a/vol-abc/", "vol-abc"},
           {"csi-kubernetes.io/aws-ebs-0", "csi-kubernetes.io/aws-ebs-0"},
           {"aws://us-east-1a/disk-abc", ""},
           {"aws://us-east-1a/a/vol-abc", ""},
       }) {
    StatusOr<std::string> got = KubernetesVolumeIdToEbsVolumeId(c.in);
    if (c.want.empty()) {
      EXPECT_FALSE(got.ok()) << c.in;
    } else {
      ASSERT_TRUE(got.ok()) << c.in;
      EXPECT_EQ(*got, c.want) << c.in;
    }
  }
}

TEST(CsiTranslation, GcePdHandles) {
  VolumeSource gce;
  gce.kind = "gcePersistentDisk";
  gce.pd_name = "disk";
  PersistentVolume pv;
  EXPECT_EQ(*VolumeHandle(gce, nullptr), "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk");
  EXPECT_EQ(*VolumeHandle(gce, &pv), "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk");
  pv.labels["topology.kubernetes.io/zone"] = "us-east1-b";
  EXPECT_EQ(*VolumeHandle(gce, &pv), "projects/UNSPECIFIED/zones/us-east1-b/disks/disk");
  pv.labels["failure-domain.beta.kubernetes.io/zone"] = "us-east1-b__us-east1-c";
  EXPECT_EQ(*VolumeHandle(gce, &pv), "projects/UNSPECIFIED/regions/us-east1/disks/disk");
  pv.labels["failure-domain.beta.kubernetes.io/zone"] = "us-east1-b__europe-west1-c";
  EXPECT_FALSE(VolumeHandle(gce, &pv).ok());
}

}  // namespace
}  // namespace schedref::api::csitranslation
