package io.github.leanscrape.endpoint;

import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.direct.CardinalityReport;
import io.github.leanscrape.exposition.direct.DirectTextRenderer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code leanscrape} actuator endpoint: the cardinality report of the last full scrape
 * written by the direct path. Each metric family with its series and bytes, largest first,
 * and which renderer wrote it; so a user sees which metric blew up their scrape. Exposed
 * only when included, like every endpoint but health.
 *
 * @author leanscrape
 */
@Endpoint(id = "leanscrape", defaultAccess = Access.READ_ONLY)
public final class LeanscrapeEndpoint {

	private final ScrapeRenderer renderer;

	/**
	 * Create a new endpoint.
	 * @param renderer the renderer whose scrapes are reported
	 */
	public LeanscrapeEndpoint(ScrapeRenderer renderer) {
		this.renderer = renderer;
	}

	/**
	 * Return the report of the last full scrape, or nothing (404) before the first one or
	 * when the direct path is off.
	 * @return the report
	 */
	@ReadOperation
	public @Nullable CardinalityReport cardinality() {
		return (this.renderer instanceof DirectTextRenderer direct) ? direct.cardinality() : null;
	}

}
