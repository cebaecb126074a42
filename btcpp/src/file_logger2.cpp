// FileLogger2: BehaviorTree.CPP 4's `.btlog` file, with the tree's XML as Groot2 reads a
// running tree (WriteTreeToXML), so that node UIDs match.

#include <array>
#include <chrono>
#include <fstream>
#include <string>

#include "behaviortree_cpp/loggers/bt_file_logger_v2.h"
#include "behaviortree_cpp/xml_parsing.h"

namespace BT {

namespace {

// The low `bytes` bytes of `value`, little-endian, as BehaviorTree.CPP writes its numbers.
template <std::size_t bytes>
void write_little_endian(std::ofstream& out, std::uint64_t value) {
    std::array<char, bytes> buffer{};
    for (std::size_t i = 0; i < bytes; ++i)
        buffer[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
    out.write(buffer.data(), bytes);
}

std::int64_t microseconds(Duration since_epoch) {
    return std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count();
}

}  // namespace

struct FileLogger2::Pimpl {
    std::ofstream file;
    Duration first_timestamp{};
    Duration last_flush{};
};

FileLogger2::FileLogger2(const Tree& tree, const std::filesystem::path& filepath)
    : _p(std::make_unique<Pimpl>()) {
    if (filepath.filename().extension() != ".btlog")
        throw RuntimeError("FileLogger2: the file extension must be [.btlog]");
    enableTransitionToIdle(true);
    _p->file.open(filepath, std::ofstream::binary | std::ofstream::out);
    if (!_p->file.is_open())
        throw RuntimeError("problem opening file in FileLogger2: ", filepath.string());
    _p->file << "BTCPP4-FileLogger2";
    _p->file.put(1);  // the protocol
    const std::string xml = WriteTreeToXML(tree, true, true);
    write_little_endian<4>(_p->file, xml.size());
    _p->file.write(xml.data(), static_cast<std::streamsize>(xml.size()));
    _p->first_timestamp = std::chrono::system_clock::now().time_since_epoch();
    write_little_endian<8>(_p->file, static_cast<std::uint64_t>(microseconds(_p->first_timestamp)));
    subscribeToTreeChanges(tree.rootNode());
}

FileLogger2::~FileLogger2() {
    unsubscribeFromTreeChanges();
}

void FileLogger2::callback(Duration timestamp, const TreeNode& node, NodeStatus /*prev_status*/,
                           NodeStatus status) {
    const Transition change{
        static_cast<std::uint64_t>(microseconds(timestamp - _p->first_timestamp)), node.UID(),
        static_cast<std::uint8_t>(status)};
    write_little_endian<6>(_p->file, change.timestamp_usec);
    write_little_endian<2>(_p->file, change.node_uid);
    write_little_endian<1>(_p->file, change.status);
    // To the file within 10 ms, as BehaviorTree.CPP's writer thread does, and whenever the
    // root changes (a tick's end): what a killed program recorded stays recorded.
    if (node.UID() == 1 || timestamp - _p->last_flush >= std::chrono::milliseconds(10)) {
        _p->file.flush();
        _p->last_flush = timestamp;
    }
}

void FileLogger2::flush() {
    _p->file.flush();
}

}  // namespace BT
