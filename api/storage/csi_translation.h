// CSI migration of in-tree volume sources: which in-tree plugins have a CSI
// driver, and the driver name and volume handle an in-tree source becomes.
// Specification: upstream staging/src/k8s.io/csi-translation-lib
// (translate.go and plugins/{aws_ebs,gce_pd,azure_disk,openstack_cinder,
// portworx,azure_file,vsphere_volume}.go) as of v1.32, where seven
// translators exist (RBD's was removed in v1.31). Shared by every
// implementation: it is a library of the API's, not a scheduling rule.
#ifndef SCHEDREF_API_STORAGE_CSI_TRANSLATION_H_
#define SCHEDREF_API_STORAGE_CSI_TRANSLATION_H_

#include <string>
#include <string_view>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api::csitranslation {

inline constexpr char kAwsEbsPlugin[] = "kubernetes.io/aws-ebs";
inline constexpr char kGcePdPlugin[] = "kubernetes.io/gce-pd";
inline constexpr char kAzureDiskPlugin[] = "kubernetes.io/azure-disk";
inline constexpr char kCinderPlugin[] = "kubernetes.io/cinder";
inline constexpr char kPortworxPlugin[] = "kubernetes.io/portworx-volume";
inline constexpr char kAzureFilePlugin[] = "kubernetes.io/azure-file";
inline constexpr char kVsphereVolumePlugin[] = "kubernetes.io/vsphere-volume";

// The in-tree plugin name of a migratable source kind (awsElasticBlockStore,
// gcePersistentDisk, azureDisk, cinder, portworxVolume, azureFile,
// vsphereVolume); "" for every other kind. The same seven kinds are
// migratable inline and as PersistentVolume sources (IsInlineMigratable,
// IsPVMigratable).
[[nodiscard]] std::string InTreePluginName(std::string_view source_kind);

// The CSI driver of in-tree plugin `plugin_name`; "" iff the name is not one
// of the seven (GetCSINameFromInTreeName's error).
[[nodiscard]] std::string CsiDriverName(std::string_view plugin_name);

// The CSI volume handle an in-tree `source` becomes
// (TranslateInTreePVToCSI when `pv` is set, TranslateInTreeInlineVolumeToCSI
// otherwise; the two differ only for gcePersistentDisk, whose PV handle
// names the zone or region of the PV's zone label). Errors carry the
// translator's message. REQUIRES: InTreePluginName(source.kind) != "".
[[nodiscard]] StatusOr<std::string> VolumeHandle(const VolumeSource& source,
                                                 const PersistentVolume* pv);

// The EBS volume ID of a Kubernetes AWS volume ID (aws_ebs.go KubernetesVolumeIDToEBSVolumeID):
// unchanged unless it starts with "aws://", then the URL's path without
// surrounding slashes, which must be "vol-" followed by no '/'.
[[nodiscard]] StatusOr<std::string> KubernetesVolumeIdToEbsVolumeId(const std::string& id);

}  // namespace schedref::api::csitranslation

#endif  // SCHEDREF_API_STORAGE_CSI_TRANSLATION_H_
