// PtWriter against torch: tests/data/pt_writer/expected.json (gen_expected.py, torch 1.13) holds, per
// case, a tensor's storage bytes and the data.pkl torch.save writes for it. We write the same bytes,
// read the file back with our pt_reader, compare data.pkl byte for byte and check the zip's layout.
// (tests/cli/msprobe_umbrella_test.sh has torch itself load our files when it is installed.)
#include "msprobe/dump/formats/pt_writer.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <filesystem>

#include "msprobe/dump/formats/pt_reader.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"

namespace msprobe {
namespace {

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

struct Case {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  std::string storage, data_pkl;
};

std::vector<Case> LoadCases() {
  rapidjson::Document doc;
  doc.Parse(testing::ReadFile(testing::TestData("pt_writer/expected.json")).c_str());
  EXPECT_FALSE(doc.HasParseError());
  std::vector<Case> cases;
  for (const auto& c : doc["cases"].GetArray()) {
    Case k;
    k.name = c["name"].GetString();
    k.dtype = *FromName(c["dtype"].GetString());
    for (const auto& d : c["shape"].GetArray()) k.shape.push_back(d.GetInt64());
    k.storage = FromHex(c["storage_hex"].GetString());
    k.data_pkl = FromHex(c["data_pkl_hex"].GetString());
    cases.push_back(std::move(k));
  }
  return cases;
}

TEST(PtWriterTest, PickleIsTorchsByteForByte) {
  const std::vector<Case> cases = LoadCases();
  ASSERT_EQ(cases.size(), 9u);
  for (const Case& c : cases) EXPECT_EQ(TorchTensorPickle(c.dtype, c.shape), c.data_pkl) << c.name;
}

TEST(PtWriterTest, WrittenFilesReadBackExactly) {
  testing::TempDir dir;
  for (const Case& c : LoadCases()) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.Path(c.name + ".pt");
    ASSERT_TRUE(WritePt(path, c.dtype, c.shape, AsBytes(c.storage)).ok());
    Result<TensorInfo> info = ReadPtFile(path);
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    EXPECT_EQ(info->dtype, c.dtype);
    EXPECT_EQ(info->shape, c.shape);
    EXPECT_TRUE(info->IsContiguous());
    EXPECT_FALSE(info->requires_grad);
    EXPECT_FALSE(info->big_endian);
    EXPECT_EQ(info->storage_offset, 0);
    const std::string file = testing::ReadFile(path);
    EXPECT_EQ(file.substr(info->data_offset, c.storage.size()), c.storage);
    EXPECT_EQ(info->data_offset % 64, 0u);  // torch >= 1.13 aligns the storage

    Result<ZipArchive> zip = ZipArchive::Open(AsBytes(file), path);
    ASSERT_TRUE(zip.ok()) << zip.status().ToString();
    std::vector<std::string> names;
    for (const ZipEntry& e : zip->entries()) {
      names.push_back(e.name);
      EXPECT_EQ(e.method, 0) << e.name;  // stored
    }
    const std::string folder = c.name + "/";
    EXPECT_EQ(names, (std::vector<std::string>{folder + "data.pkl", folder + "byteorder", folder + "data/0",
                                               folder + "version"}));
    EXPECT_EQ(*zip->ReadMember(*zip->Find(folder + "version"), 16), "3\n");
    EXPECT_EQ(*zip->ReadMember(*zip->Find(folder + "byteorder"), 16), "little");
    EXPECT_EQ(*zip->ReadMember(*zip->Find(folder + "data.pkl"), 1 << 20), c.data_pkl);
  }
  // Nothing but the finished files is left in the directory.
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.root())) ++files;
  EXPECT_EQ(files, 9u);
}

TEST(PtWriterTest, StreamedAppendsAndIncompleteFiles) {
  testing::TempDir dir;
  const std::string path = dir.Path("s.pt");
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const Bytes all(reinterpret_cast<const std::byte*>(values.data()), values.size() * 4);
  {
    Result<PtWriter> w = PtWriter::Create(path, DType::kF32, {3, 2});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Append(all.subspan(0, 8)).ok());
    EXPECT_FALSE(w->Finish().ok());  // 2 of 6 elements
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));  // the temporary file is gone too
  Result<PtWriter> w = PtWriter::Create(path, DType::kF32, {3, 2});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w->Append(all.subspan(0, 8)).ok());
  EXPECT_FALSE(w->Append(all.subspan(0, 3)).ok());  // a partial element
  ASSERT_TRUE(w->Append(all.subspan(8)).ok());
  EXPECT_FALSE(w->Append(all.subspan(0, 4)).ok());  // past the shape
  ASSERT_TRUE(w->Finish().ok());
  Result<TensorInfo> info = ReadPtFile(path);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(testing::ReadFile(path).substr(info->data_offset, 24), std::string(reinterpret_cast<const char*>(values.data()), 24));
}

TEST(PtWriterTest, RefusesDtypesTorchCannotHold) {
  testing::TempDir dir;
  const std::string path = dir.Path("u.pt");
  for (DType t : {DType::kU64, DType::kI4, DType::kF8E4M3FN, DType::kC32}) {
    EXPECT_EQ(PtWriter::Create(path, t, {2}).status().code(), Code::kUnsupported) << Name(t);
  }
  EXPECT_EQ(PtWriter::Create(path, DType::kF32, {-1}).status().code(), Code::kInvalidInput);
  EXPECT_TRUE(std::filesystem::is_empty(dir.root()));
}

}  // namespace
}  // namespace msprobe
