package io.github.leanscrape.endpoint;

import io.github.leanscrape.exposition.direct.CardinalityReport;
import io.github.leanscrape.exposition.direct.RenderStatistics;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code leanscrape} actuator endpoint: the cardinality report of the last full
 * scrape written by the direct path. Each metric family with its series and bytes,
 * largest first, and which renderer wrote it; so a user sees which metric blew up their
 * scrape. It also tells why scrapes went to the reference path as a whole, and why
 * families went there inside direct scrapes, if any did, each reason with its count.
 * Exposed only when included, like every endpoint but health.
 *
 * @author leanscrape
 */
@Endpoint(id = "leanscrape", defaultAccess = Access.READ_ONLY)
public final class CardinalityEndpoint {

	private final @Nullable RenderStatistics statistics;

	/**
	 * Create a new endpoint.
	 * @param statistics what the renderer tells of its scrapes, or {@code null} when the
	 * direct path is off
	 */
	public CardinalityEndpoint(@Nullable RenderStatistics statistics) {
		this.statistics = statistics;
	}

	/**
	 * Return the report of the last full scrape and of the fallbacks to the reference
	 * path, or nothing (404) before either or when the direct path is off.
	 * @return the report
	 */
	@ReadOperation
	public @Nullable CardinalityReport cardinality() {
		return (this.statistics != null) ? this.statistics.cardinality() : null;
	}

}
