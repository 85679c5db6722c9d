// Tests of base/file.h: whole-file reads, the size limit checked before reading, directories
// refused, streams read up to the limit, the head check, the error wording callers print; and the
// atomic writer (replace whole or not at all, never a device, FIFO or input, no stray temps).
#include "base/file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

TEST_F(ReadFileTest, HeadCheckStopsAStreamOfTheWrongContentEarly) {
  ReadFileOptions bundle_only;
  bundle_only.check_head = [](std::string_view head) -> std::string {
    return head.substr(0, 8) == "WMBUNDLE" ? "" : "not a wmc bundle";
  };
  std::string contents;
  // /dev/zero never ends: without the head check this would read up to max_bytes (1 GiB).
  ReadFileResult zero = ReadFile("/dev/zero", &contents, bundle_only);
  EXPECT_EQ(zero.status, ReadFileStatus::kUnexpectedContent);
  EXPECT_EQ(zero.message, "/dev/zero: not a wmc bundle");
  // Files shorter than the head are checked once at the end.
  EXPECT_TRUE(ReadFile(Write("ok.wmb", "WMBUNDLE..."), &contents, bundle_only).ok());
  EXPECT_EQ(ReadFile(Write("short", "abc"), &contents, bundle_only).status,
            ReadFileStatus::kUnexpectedContent);
}

using WriteFileTest = ReadFileTest;

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t Entries(const fs::path& dir) {
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  return entries;
}

TEST_F(WriteFileTest, ReplacesWholeOrLeavesTheFileAsItWas) {
  fs::path target = dir_ / "out.wmb";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(target.string(), "first", &error)) << error;
  ASSERT_TRUE(WriteFileAtomically(target.string(), "second", &error)) << error;
  EXPECT_EQ(Slurp(target), "second");
  // A destination inside a missing directory fails and creates nothing.
  EXPECT_FALSE(WriteFileAtomically((dir_ / "missing" / "x.wmb").string(), "x", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(Entries(dir_), 1u);  // no stray temp files
}

TEST_F(WriteFileTest, RefusesToReplaceAFifoADirectoryOrAnInput) {
  std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_FALSE(WriteFileAtomically(fifo, "x", &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  struct stat info {};
  ASSERT_EQ(::stat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));  // still the FIFO

  EXPECT_FALSE(WriteFileAtomically(dir_.string(), "x", &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;

  std::string source = Write("f.yaml", "kind: Karta\n");
  // The same file under another spelling is still the input.
  std::string other_spelling = (dir_ / "." / "f.yaml").string();
  EXPECT_FALSE(WriteFileAtomically(other_spelling, "bundle", &error, {{source}}));
  EXPECT_NE(error.find("also an input"), std::string::npos) << error;
  EXPECT_EQ(Slurp(source), "kind: Karta\n");
  EXPECT_EQ(Entries(dir_), 2u);  // fifo and f.yaml, no temps
}

TEST_F(WriteFileTest, ASigtermDuringTheWriteLeavesNoTemporaryFile) {
  fs::path target = dir_ / "big.wmb";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Large enough that the write and fsync are still running when the signal arrives.
    std::string payload(size_t{256} << 20, 'x');
    std::string error;
    WriteFileAtomically(target.string(), payload, &error);
    ::_exit(0);
  }
  // Wait until the temporary file exists, then stop the writer.
  for (int i = 0; i < 2000 && Entries(dir_) == 0; ++i) ::usleep(1000);
  ::kill(child, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(Entries(dir_), 0u) << "the temporary file was left behind";
  } else {
    // The write won the race: the target is complete and nothing else is there.
    EXPECT_EQ(Entries(dir_), 1u);
    EXPECT_EQ(fs::file_size(target), size_t{256} << 20);
  }
}

TEST(SameFile, ComparesFilesNotSpellings) {
  EXPECT_TRUE(SameFile("/dev/null", "/dev/../dev/null"));
  EXPECT_FALSE(SameFile("/dev/null", "/dev/zero"));
  EXPECT_FALSE(SameFile("/no/such/file", "/no/such/file"));
}

}  // namespace
}  // namespace wm::base
