package com.bloceclat.leaderboard.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "bloc.leaderboard")
public interface LeaderboardConfig {

    /** Entries per page when the caller does not say. */
    @WithDefault("20")
    int defaultPageSize();

    /** The largest page a caller may ask for. */
    @WithDefault("100")
    int maxPageSize();

    /** The last page number a caller may ask for (pages count from 0). */
    @WithDefault("1000")
    int maxPage();
}
