package com.bloceclat.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.security.TokenPolicy.Reason;

class TokenPolicyTest {

    final TokenPolicy policy = TokenPolicy.of(TokenPolicy.DEFAULT_CLIENTS);

    static Map<String, Object> access(String client) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("typ", "Bearer");
        claims.put("azp", client);
        claims.put("sub", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
        claims.put("preferred_username", "alice");
        return claims;
    }

    Reason refused(Map<String, Object> claims) {
        return policy.check(claims).orElseThrow(() -> new AssertionError("accepted: " + claims)).reason();
    }

    @Test
    void accessTokensOfTheWebUiAndTheServicesAreAccepted() {
        assertTrue(policy.check(access("web-ui")).isEmpty());
        assertTrue(policy.check(access("bloc-services")).isEmpty());
    }

    @Test
    void tokensOfAnyOtherClientAreRefused() {
        assertEquals(Reason.OTHER_CLIENT, refused(access("admin-cli")));
        assertEquals(Reason.OTHER_CLIENT, refused(access("reports-app")));
        assertEquals(Reason.OTHER_CLIENT, refused(access("WEB-UI")));
        Map<String, Object> none = access("web-ui");
        none.remove("azp");
        assertEquals(Reason.OTHER_CLIENT, refused(none));
        Map<String, Object> list = access("web-ui");
        list.put("azp", List.of("web-ui"));
        assertEquals(Reason.OTHER_CLIENT, refused(list));
    }

    @Test
    void idRefreshAndUntypedTokensAreRefused() {
        for (Object typ : new Object[] {"ID", "Refresh", "Logout", "bearer", null, 1}) {
            Map<String, Object> claims = access("web-ui");
            claims.put("typ", typ);
            assertEquals(Reason.NOT_AN_ACCESS_TOKEN, refused(claims), "typ " + typ);
        }
    }

    @Test
    void aTokenWithoutASubjectIsRefused() {
        for (Object sub : new Object[] {null, "", "  ", 42}) {
            Map<String, Object> claims = access("web-ui");
            claims.put("sub", sub);
            assertEquals(Reason.NO_SUBJECT, refused(claims), "sub " + sub);
        }
    }

    @Test
    void theRefusalNamesTheClientShortAndClean() {
        Map<String, Object> claims = access("admin\u0000-cli" + "x".repeat(100));
        String detail = policy.check(claims).orElseThrow().detail();
        assertTrue(detail.startsWith("issued to client \"admin-cli"), detail);
        assertTrue(detail.length() < 120, detail);
    }

    @Test
    void theClientListIsConfigurable() {
        TokenPolicy only = TokenPolicy.of(List.of(" web-ui ", ""));
        assertTrue(only.check(access("web-ui")).isEmpty());
        assertEquals(Reason.OTHER_CLIENT, only.check(access("bloc-services")).orElseThrow().reason());
        assertThrows(IllegalArgumentException.class, () -> TokenPolicy.of(List.of(" ")));
    }
}
