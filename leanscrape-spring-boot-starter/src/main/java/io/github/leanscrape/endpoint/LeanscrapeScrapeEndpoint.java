package io.github.leanscrape.endpoint;

import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.PendingScrape;
import io.github.leanscrape.serve.Scraper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.core.io.Resource;

/**
 * The {@code prometheus} endpoint, in place of Spring Boot's: same id, same formats, same
 * bytes, but the body is a view over pooled chunks that is never copied into one array.
 * <p>
 * It is a {@link PrometheusScrapeEndpoint} so that code injecting Spring Boot's endpoint
 * still finds one. The web operation is {@link #scrapeBody}; {@link #scrape} is kept for
 * callers of Spring Boot's method and answers with a copy, as Spring Boot does.
 *
 * @author leanscrape
 */
public final class LeanscrapeScrapeEndpoint extends PrometheusScrapeEndpoint {

	private final Scraper scraper;

	private final Deadlines deadlines;

	/**
	 * Create a new endpoint.
	 * @param prometheusRegistry the registry, passed on to Spring Boot's endpoint
	 * @param exporterProperties client_java's exporter properties
	 * @param scraper the scraper that produces the bodies
	 * @param deadlines the deadlines of scrapes, for web layers that read the body as a
	 * stream
	 */
	public LeanscrapeScrapeEndpoint(PrometheusRegistry prometheusRegistry, @Nullable Properties exporterProperties,
			Scraper scraper, Deadlines deadlines) {
		super(prometheusRegistry, exporterProperties);
		this.scraper = scraper;
		this.deadlines = deadlines;
	}

	/**
	 * Answer a scrape with a scrape still to serve: the web layer serves it, with the
	 * request's scrape timeout and encoding, writes its pooled chunks without a copy, and
	 * releases it when the response is done, also when the client went away.
	 * @param format the negotiated format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the response
	 */
	@ReadOperation(producesFrom = PrometheusOutputFormat.class)
	public WebEndpointResponse<Resource> scrapeBody(PrometheusOutputFormat format,
			@Nullable Set<String> includedNames) {
		PendingScrape pending = new PendingScrape(this.scraper, format, includedNames);
		return new WebEndpointResponse<>(new PendingScrapeResource(pending, this.deadlines), format);
	}

	/**
	 * Answer a scrape with the body in a new array, as Spring Boot's endpoint does. Not a
	 * web operation: it serves code that calls the endpoint directly.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the response
	 */
	@Override
	public WebEndpointResponse<byte[]> scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		PooledBody body = this.scraper.renderNow(format, includedNames);
		try {
			return new WebEndpointResponse<>(body.toByteArray(), format);
		}
		finally {
			body.release();
		}
	}

}
