package com.bloceclat.game.rest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * UI development: with {@code bloc.ui.dir} ({@code BLOC_UI_DIR}) set, files of that directory are served ahead of the
 * bundled web UI, read on every request (no caching), so a rebuilt {@code web-ui/dist} shows on reload. Paths under
 * {@code /api} and {@code /q}, and {@code /config.json}, always go to the service; a file the directory does not have
 * falls through to the bundle.
 */
@ApplicationScoped
public class UiDirectory {

    private static final Logger LOG = Logger.getLogger(UiDirectory.class);

    /** Every path but {@code /api}, {@code /q} (and below) and {@code /config.json}. */
    static final Pattern SERVED = Pattern.compile("^/(?!(api|q)(/|$)|config\\.json$).*");

    void init(@Observes Router router, GameConfig.Ui ui) {
        ui.dir().filter(d -> !d.isBlank()).ifPresent(d -> {
            Path dir = Path.of(d).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                LOG.warnf("bloc.ui.dir %s is not a directory (yet): its files will be served once it is", dir);
            }
            LOG.infof("serving the web UI from %s ahead of the bundled one (bloc.ui.dir)", dir);
            router.routeWithRegex(SERVED.pattern())
                    .order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT)
                    .handler(handler(dir));
        });
    }

    static StaticHandler handler(Path dir) {
        return StaticHandler.create(FileSystemAccess.ROOT, dir.toString())
                .setCachingEnabled(false)
                .setFilesReadOnly(false)
                .setDirectoryListing(false);
    }
}
