package com.bloceclat.engine;

/** Size classes of RULES.md's catalogue; level weights are given per class. */
public enum PieceClass {
    SMALL, MEDIUM, LARGE
}
