#pragma once

// BT::FileLogger2: records a tree and every status change of its nodes in a `.btlog` file,
// which Groot2 replays. The file is BehaviorTree.CPP 4's: "BTCPP4-FileLogger2", the protocol
// byte 1, the tree's XML (its length in 4 bytes, then the text, each node with its `_uid`),
// the first time (microseconds since the epoch, 8 bytes), then 9 bytes per change: the time
// since the first (6 bytes), the node's UID (2) and its status (1); numbers little-endian.

#include <cstdint>
#include <filesystem>
#include <memory>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

class FileLogger2 : public StatusChangeLogger {
public:
    /// Writes the head of the log at once; the changes as they come.
    /// @warning throws RuntimeError unless `filepath` ends in ".btlog" (Groot2 reads only
    /// those) and can be written.
    FileLogger2(const Tree& tree, const std::filesystem::path& filepath);
    FileLogger2(const FileLogger2&) = delete;
    FileLogger2& operator=(const FileLogger2&) = delete;
    /// Writes what is left and closes the file.
    ~FileLogger2() override;

    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;
    /// Writes the changes heard so far to the file.
    void flush() override;

    /// One status change as the file holds it.
    struct Transition {
        std::uint64_t timestamp_usec;  ///< since the first time; 6 bytes in the file
        std::uint16_t node_uid;
        std::uint8_t status;
    };

private:
    struct Pimpl;
    std::unique_ptr<Pimpl> _p;
};

}  // namespace BT
