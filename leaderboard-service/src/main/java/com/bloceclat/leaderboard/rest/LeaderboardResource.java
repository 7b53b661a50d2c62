package com.bloceclat.leaderboard.rest;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.common.rest.ServiceInfo;
import com.bloceclat.common.security.Caller;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

@Path("/api/leaderboards")
@Produces(MediaType.APPLICATION_JSON)
public class LeaderboardResource {

    /**
     * The caller and their records. No game is validated into a record yet (that comes with the
     * {@code game-finished} consumer), so the list is empty for everyone.
     */
    public record MyRecords(String subject, String name, List<String> roles, List<Object> records) {
    }

    @Inject
    SecurityIdentity identity;

    @Inject
    ServiceInfo info;

    @GET
    @Path("/info")
    @Operation(summary = "Public: which service and version answers")
    public ServiceInfo info() {
        return info;
    }

    @GET
    @Path("/me")
    @Authenticated
    @Operation(summary = "The calling player and their records")
    public MyRecords me() {
        Caller caller = Caller.of(identity);
        return new MyRecords(caller.subject(), caller.name(), caller.roles(), List.of());
    }
}
