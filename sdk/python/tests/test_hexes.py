"""Hex helpers against sdk/BOARD.md: names, axial coordinates,
areas, distances, neighbours."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import (LOCATIONS_2P, LOCATIONS_4P, axial_to_hex, board_hexes,  # noqa: E402
                       hex_distance, hex_to_axial, in_line, neighbours, on_board)

# The locations table of BOARD.md: hex -> axial (q, r).
BOARD_MD_LOCATIONS = {"e2": (-1, -2), "h1": (2, -3), "d7": (-2, 3), "g6": (1, 2),
                      "c6": (-3, 2), "d4": (-2, 0), "e5": (-1, 1), "g3": (1, -1),
                      "h4": (2, 0), "i2": (3, -2), "b5": (-4, 1), "j3": (4, -1),
                      "a7": (-5, 3), "k1": (5, -3)}


class HexTest(unittest.TestCase):
    def test_centre_and_naming(self):
        self.assertEqual(hex_to_axial("f4"), (0, 0))
        self.assertEqual(axial_to_hex(0, 0), "f4")
        for name, qr in BOARD_MD_LOCATIONS.items():
            self.assertEqual(hex_to_axial(name), qr, name)
            self.assertEqual(axial_to_hex(*qr), name)

    def test_bad_names(self):
        for bad in ("", "f", "f0", "f8", "l4", "F4", "f44", None, 7):
            with self.assertRaises(ValueError):
                hex_to_axial(bad)
        with self.assertRaises(ValueError):
            axial_to_hex(6, 0)

    def test_areas(self):
        two, four = board_hexes(2), board_hexes(4)
        self.assertEqual(len(two), 37)
        self.assertEqual(len(four), 47)
        self.assertEqual(sorted(set(four) - set(two)),
                         ["a6", "a7", "b5", "b6", "b7", "j1", "j2", "j3", "k1", "k2"])
        # Files c..i have column heights 4,5,6,7,6,5,4.
        heights = [sum(1 for h in two if h[0] == f) for f in "cdefghi"]
        self.assertEqual(heights, [4, 5, 6, 7, 6, 5, 4])
        self.assertTrue(all(on_board(h) for h in LOCATIONS_2P))
        self.assertTrue(all(on_board(h, 4) for h in LOCATIONS_4P))
        self.assertFalse(on_board("a7"))
        self.assertFalse(on_board("zz"))

    def test_distance(self):
        self.assertEqual(hex_distance("d4", "f4"), 2)
        self.assertEqual(hex_distance("f4", "f4"), 0)
        self.assertEqual(hex_distance("f1", "f7"), 6)
        self.assertEqual(hex_distance("c4", "i4"), 6)   # opposite corners
        self.assertEqual(hex_distance("e2", "d7"), hex_distance("d7", "e2"))
        for h in board_hexes():
            for n in neighbours(h):
                self.assertEqual(hex_distance(h, n), 1)

    def test_neighbours(self):
        self.assertEqual(sorted(neighbours("f4")), ["e4", "e5", "f3", "f5", "g3", "g4"])
        self.assertEqual(sorted(neighbours("f1")), ["e2", "f2", "g1"])   # the top edge
        self.assertEqual(len(neighbours("c4")), 3)
        self.assertIn("b5", neighbours("c4", players=4))

    def test_half_turn_symmetry(self):
        # (q, r) -> (-q, -r) swaps the sides and keeps the locations.
        for h in LOCATIONS_4P:
            q, r = hex_to_axial(h)
            self.assertIn(axial_to_hex(-q, -r), LOCATIONS_4P)

    def test_in_line(self):
        self.assertTrue(in_line("f4", "f6"))
        self.assertTrue(in_line("d4", "h4"))                   # r shared: (-2,0), (2,0)
        self.assertTrue(in_line("f4", "h2"))                   # s shared: (0,0), (2,-2)
        self.assertFalse(in_line("f4", "g5"))
        self.assertFalse(in_line("f4", "f4"))


if __name__ == "__main__":
    unittest.main()
