#include "api/storage/csi_translation.h"

#include <regex>
#include <vector>

namespace schedref::api::csitranslation {
namespace {

struct Translator {
  std::string_view kind;
  std::string_view plugin;
  std::string_view driver;
};

constexpr Translator kTranslators[] = {
    {"awsElasticBlockStore", kAwsEbsPlugin, "ebs.csi.aws.com"},
    {"gcePersistentDisk", kGcePdPlugin, "pd.csi.storage.gke.io"},
    {"azureDisk", kAzureDiskPlugin, "disk.csi.azure.com"},
    {"cinder", kCinderPlugin, "cinder.csi.openstack.org"},
    {"portworxVolume", kPortworxPlugin, "pxd.portworx.com"},
    {"azureFile", kAzureFilePlugin, "file.csi.azure.com"},
    {"vsphereVolume", kVsphereVolumePlugin, "csi.vsphere.vmware.com"},
};

constexpr char kUnspecified[] = "UNSPECIFIED";

std::vector<std::string> Split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    if (at == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, at - start));
    start = at + sep.size();
  }
}

// gce_pd.go: the region shared by zones "<a>-<b>-<c>" is "<a>-<b>".
StatusOr<std::string> RegionFromZones(const std::vector<std::string>& zones) {
  std::string region;
  for (const std::string& zone : zones) {
    const std::vector<std::string> parts = Split(zone, "-");
    if (parts.size() != 3) {
      return Status::Invalid("zone \"" + zone + "\" not of the form <region>-<zone>");
    }
    const std::string r = parts[0] + "-" + parts[1];
    if (!region.empty() && r != region) {
      return Status::Invalid("multiple regions found in zones");
    }
    region = r;
  }
  return region;
}

StatusOr<std::string> GcePdHandle(const VolumeSource& source, const PersistentVolume* pv) {
  const std::string disk = source.pd_name;
  if (pv == nullptr) {
    return std::string("projects/") + kUnspecified + "/zones/" + kUnspecified + "/disks/" + disk;
  }
  auto label = [&](const char* key) {
    auto it = pv->labels.find(key);
    return it == pv->labels.end() ? std::string() : it->second;
  };
  std::string zones_label = label("failure-domain.beta.kubernetes.io/zone");
  if (zones_label.empty()) zones_label = label("topology.kubernetes.io/zone");
  const std::vector<std::string> zones = Split(zones_label, "__");
  if (zones.size() == 1 && !zones[0].empty()) {
    return std::string("projects/") + kUnspecified + "/zones/" + zones[0] + "/disks/" + disk;
  }
  if (zones.size() > 1) {
    StatusOr<std::string> region = RegionFromZones(zones);
    if (!region.ok()) {
      return Status::Invalid("failed to get region from zones: " + region.status().message());
    }
    return std::string("projects/") + kUnspecified + "/regions/" + *region + "/disks/" + disk;
  }
  return std::string("projects/") + kUnspecified + "/zones/" + kUnspecified + "/disks/" + disk;
}

}  // namespace

std::string InTreePluginName(std::string_view source_kind) {
  for (const Translator& t : kTranslators) {
    if (t.kind == source_kind) return std::string(t.plugin);
  }
  return "";
}

std::string CsiDriverName(std::string_view plugin_name) {
  for (const Translator& t : kTranslators) {
    if (t.plugin == plugin_name) return std::string(t.driver);
  }
  return "";
}

StatusOr<std::string> KubernetesVolumeIdToEbsVolumeId(const std::string& id) {
  static constexpr std::string_view kScheme = "aws://";
  if (id.rfind(kScheme, 0) != 0) return id;
  // url.Parse: after the authority, the path runs to '?' or '#'.
  std::string rest = id.substr(kScheme.size());
  const size_t slash = rest.find('/');
  std::string path = slash == std::string::npos ? "" : rest.substr(slash);
  const size_t end = path.find_first_of("?#");
  if (end != std::string::npos) path = path.substr(0, end);
  const size_t first = path.find_first_not_of('/');
  path = first == std::string::npos ? "" : path.substr(first);
  const size_t last = path.find_last_not_of('/');
  path = last == std::string::npos ? "" : path.substr(0, last + 1);
  static const std::regex kVolumeId("^vol-[^/]*$");
  if (!std::regex_match(path, kVolumeId)) {
    return Status::Invalid("Invalid format for AWS volume (" + id + ")");
  }
  return path;
}

StatusOr<std::string> VolumeHandle(const VolumeSource& source, const PersistentVolume* pv) {
  if (source.kind == "awsElasticBlockStore") {
    StatusOr<std::string> id = KubernetesVolumeIdToEbsVolumeId(source.volume_id);
    if (!id.ok()) {
      return Status::Invalid("failed to translate Kubernetes ID to EBS Volume ID " +
                             id.status().message());
    }
    return id;
  }
  if (source.kind == "gcePersistentDisk") return GcePdHandle(source, pv);
  if (source.kind == "azureDisk") return source.disk_uri;
  if (source.kind == "cinder" || source.kind == "portworxVolume") return source.volume_id;
  // azureFile and vsphereVolume translate too, but no field this project
  // decodes names their handle, and no caller counts them (their migration
  // is never "on" for the scheduler).
  return Status::Invalid("translation of " + source.kind + " volumes is not modelled");
}

}  // namespace schedref::api::csitranslation
