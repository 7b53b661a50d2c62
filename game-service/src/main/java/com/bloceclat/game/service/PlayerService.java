package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.bloceclat.common.security.Caller;
import com.bloceclat.game.Player;

@ApplicationScoped
public class PlayerService {

    @Transactional
    public void seen(Caller caller) {
        Player.seen(caller.subject(), caller.name(), OffsetDateTime.now(ZoneOffset.UTC));
    }
}
