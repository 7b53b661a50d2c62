package com.bloceclat.engine.solver;

/** The K best distinct final positions of a round, by value; tiny, so linear scans win. */
final class TopK {
    private final double[] values;
    private final long[] boards;
    private final int[] streaks;
    private final int[] misses;
    private final int[] points;
    private final int[] paths;
    private final boolean[] complete;
    private int size;
    private int minIndex;

    TopK(int capacity) {
        values = new double[capacity];
        boards = new long[capacity];
        streaks = new int[capacity];
        misses = new int[capacity];
        points = new int[capacity];
        paths = new int[capacity];
        complete = new boolean[capacity];
    }

    void clear() {
        size = 0;
        minIndex = 0;
    }

    void offer(double v, long board, int streak, int miss, int pts, int path, boolean done) {
        if (size == values.length && v <= values[minIndex]) {
            return;
        }
        for (int k = 0; k < size; k++) {
            if (boards[k] == board && streaks[k] == streak && misses[k] == miss) {
                if (v > values[k]) {
                    set(k, v, board, streak, miss, pts, path, done);
                    updateMin();
                }
                return;
            }
        }
        if (size < values.length) {
            set(size++, v, board, streak, miss, pts, path, done);
        } else {
            set(minIndex, v, board, streak, miss, pts, path, done);
        }
        updateMin();
    }

    private void set(int k, double v, long board, int streak, int miss, int pts, int path, boolean done) {
        values[k] = v;
        boards[k] = board;
        streaks[k] = streak;
        misses[k] = miss;
        points[k] = pts;
        paths[k] = path;
        complete[k] = done;
    }

    private void updateMin() {
        minIndex = 0;
        for (int k = 1; k < size; k++) {
            if (values[k] < values[minIndex]) {
                minIndex = k;
            }
        }
    }

    int size() {
        return size;
    }

    int bestIndex() {
        int b = 0;
        for (int k = 1; k < size; k++) {
            if (values[k] > values[b]) {
                b = k;
            }
        }
        return b;
    }

    /** Indexes from the highest value down. */
    int[] bestFirst() {
        Integer[] idx = new Integer[size];
        for (int k = 0; k < size; k++) {
            idx[k] = k;
        }
        java.util.Arrays.sort(idx, (a, b) -> Double.compare(values[b], values[a]));
        return java.util.Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
    }

    long board(int k) {
        return boards[k];
    }

    int streak(int k) {
        return streaks[k];
    }

    int miss(int k) {
        return misses[k];
    }

    int points(int k) {
        return points[k];
    }

    int path(int k) {
        return paths[k];
    }

    boolean complete(int k) {
        return complete[k];
    }
}
