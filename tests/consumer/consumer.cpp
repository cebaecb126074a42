// A program that uses Canopy as an outside project would: the README's example.
#include <canopy/canopy.hpp>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    canopy::registry reg;
    canopy::register_builtin_nodes(reg);
    for (const char* leaf : {"CoinNearby", "PickUpCoin", "LongTimeNoCoin", "LongAwayFromOwner",
                             "GoToOwner", "Wander"}) {
        reg.add_leaf(leaf);
    }
    try {
        auto tree = canopy::load_file(argv[1], reg);
        canopy::print(*tree, std::cout);
        std::cout << "loaded " << tree->size() << " nodes\n";
    } catch (const canopy::load_error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
