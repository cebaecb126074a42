// A program that uses Canopy as an outside project would: the README's example.
#include <canopy/canopy.hpp>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    for (const char* leaf : {"CoinNearby", "PickUpCoin", "LongTimeNoCoin", "LongAwayFromOwner",
                             "GoToOwner", "Wander"}) {
        reg.add_condition(leaf, [](canopy::context& ctx) { return ctx.random() % 2 == 0; });
    }
    try {
        auto tree = canopy::load_file(argv[1], reg);
        canopy::print(*tree, std::cout);
        std::vector<canopy::agent> pets;
        for (int i = 0; i < 1000; ++i) pets.emplace_back(tree, nullptr, i);
        int succeeded = 0;
        for (canopy::agent& pet : pets) succeeded += pet.tick(0.1) == canopy::status::success;
        std::cout << "loaded " << tree->size() << " nodes; " << succeeded
                  << " of 1000 pets succeeded\n";
    } catch (const canopy::load_error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
