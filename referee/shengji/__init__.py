"""升级 (Shengji / Tractor / 80分 / 双升): the four two-deck rulebooks."""
