#include "demo.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "canopy/core/error.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/tree.hpp"
#include "hornet_nodes.hpp"
#include "idle_nodes.hpp"
#include "pet_nodes.hpp"

namespace canopy::demo {
namespace {

// The world of a pack whose host is a Host, with advance(Host&, agent&, dt) and
// describe(const Host&) beside it.
template <typename Host>
class hosts final : public world {
    static_assert(std::is_trivially_copyable_v<Host>, "a demo's host is saved as its bytes");

public:
    hosts(std::size_t agents, std::uint64_t seed) {
        hosts_.reserve(agents);
        for (std::size_t i = 0; i < agents; ++i) hosts_.emplace_back(seed + i);
    }
    host_ref host(std::size_t i) override { return &hosts_[i]; }
    void before_tick(std::size_t i, agent& a, double dt) override { advance(hosts_[i], a, dt); }
    std::string describe(std::size_t i) const override {
        return ::canopy::demo::describe(hosts_[i]);
    }
    std::size_t host_bytes() const noexcept override { return sizeof(Host); }
    std::string save(std::size_t i) const override {
        return {reinterpret_cast<const char*>(&hosts_[i]), sizeof(Host)};
    }
    bool restore(std::size_t i, std::string_view saved) override {
        if (saved.size() != sizeof(Host)) return false;
        std::memcpy(static_cast<void*>(&hosts_[i]), saved.data(), sizeof(Host));
        return true;
    }

private:
    std::vector<Host> hosts_;
};

template <typename Host>
std::unique_ptr<world> make(std::size_t agents, std::uint64_t seed) {
    return std::make_unique<hosts<Host>>(agents, seed);
}

// The names of the types each pack registers, in the order of packs().
const std::vector<std::vector<std::string>>& type_names() {
    static const std::vector<std::vector<std::string>> names = [] {
        std::vector<std::vector<std::string>> all;
        for (const pack& p : packs()) {
            registry own;
            p.register_nodes(own);
            std::vector<std::string>& names_of_pack = all.emplace_back();
            for (const node_type& type : own.types()) names_of_pack.push_back(type.name);
        }
        return all;
    }();
    return names;
}

}  // namespace

const std::vector<pack>& packs() {
    static const std::vector<pack> all = {
        {"pet", register_pet_nodes, make<pet_world>},
        {"hornet", register_hornet_nodes, make<hornet_arena>},
        {"idle", register_idle_nodes, make<idle_body>},
    };
    return all;
}

void register_demo_nodes(registry& reg) {
    for (const pack& p : packs()) p.register_nodes(reg);
}

const pack* pack_for(const tree& t) {
    const pack* found = nullptr;
    for (std::size_t k = 0; k < packs().size(); ++k) {
        const std::vector<std::string>& names = type_names()[k];
        const bool uses = std::any_of(t.types().begin(), t.types().end(), [&](const auto& type) {
            return std::find(names.begin(), names.end(), type.name) != names.end();
        });
        if (!uses) continue;
        if (found != nullptr) {
            throw error(error_code::host, "the tree uses node types of both the " +
                                              std::string(found->name) + " and the " +
                                              std::string(packs()[k].name) +
                                              " demo, but an agent has the host of one demo only");
        }
        found = &packs()[k];
    }
    return found;
}

}  // namespace canopy::demo
