// Tests of base/file.h: whole-file reads, the size limit checked before reading, directories
// refused, streams read up to the limit, and the error wording callers print.
#include "base/file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace wm::base {
namespace {

namespace fs = std::filesystem;

class ReadFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wm_base_file_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  fs::path dir_;
};

TEST_F(ReadFileTest, ReadsEveryByte) {
  std::string bytes("a\0b\r\nc", 6);
  std::string path = Write("bytes.bin", bytes);
  std::string contents;
  ReadFileResult result = ReadFile(path, &contents);
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(contents, bytes);
}

TEST_F(ReadFileTest, MissingFileCannotBeOpened) {
  std::string contents = "unchanged", error;
  std::string path = (dir_ / "missing.yaml").string();
  EXPECT_FALSE(ReadWholeFile(path, &contents, &error));
  EXPECT_EQ(error, "cannot open " + path);
  EXPECT_EQ(contents, "unchanged");
  EXPECT_EQ(ReadFile(path, &contents).status, ReadFileStatus::kCannotOpen);
}

TEST_F(ReadFileTest, DirectoryIsRefused) {
  std::string contents;
  ReadFileResult result = ReadFile(dir_.string(), &contents);
  EXPECT_EQ(result.status, ReadFileStatus::kNotRegularFile);
  EXPECT_EQ(result.message, dir_.string() + " is a directory");
}

TEST_F(ReadFileTest, SizeLimitIsCheckedBeforeReading) {
  std::string path = Write("big.txt", std::string(100, 'x'));
  std::string contents = "unchanged";
  ReadFileOptions options;
  options.max_bytes = 99;
  ReadFileResult result = ReadFile(path, &contents, options);
  EXPECT_EQ(result.status, ReadFileStatus::kTooLarge);
  EXPECT_NE(result.message.find("larger than 99 bytes"), std::string::npos);
  EXPECT_EQ(contents, "unchanged");
  options.max_bytes = 100;
  EXPECT_TRUE(ReadFile(path, &contents, options).ok());
  EXPECT_EQ(contents.size(), 100u);
}

TEST_F(ReadFileTest, StreamsAreReadUpToTheLimitUnlessRegularFilesOnly) {
  std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string contents;
  ReadFileOptions only_regular;
  only_regular.regular_files_only = true;
  // Opening a FIFO for reading blocks until a writer opens it: provide one first.
  FILE* writer = nullptr;
  std::thread open_writer([&] { writer = std::fopen(path.c_str(), "w"); });
  ReadFileResult refused = ReadFile(path, &contents, only_regular);
  open_writer.join();
  ASSERT_NE(writer, nullptr);
  std::fclose(writer);
  EXPECT_EQ(refused.status, ReadFileStatus::kNotRegularFile);

  ReadFileOptions small;
  small.max_bytes = 4;
  std::thread write_too_much([&] {
    FILE* w = std::fopen(path.c_str(), "w");
    std::fputs("0123456789", w);
    std::fclose(w);
  });
  ReadFileResult too_large = ReadFile(path, &contents, small);
  write_too_much.join();
  EXPECT_EQ(too_large.status, ReadFileStatus::kTooLarge);
}

}  // namespace
}  // namespace wm::base
