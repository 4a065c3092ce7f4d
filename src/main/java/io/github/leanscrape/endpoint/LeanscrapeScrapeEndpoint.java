package io.github.leanscrape.endpoint;

import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.exposition.Scraper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

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

	private static final boolean SERVLET_REQUESTS_PRESENT = ClassUtils
		.isPresent("org.springframework.web.context.request.RequestContextHolder", null);

	private static final String RELEASE_CALLBACK = LeanscrapeScrapeEndpoint.class.getName() + ".release";

	private final Scraper scraper;

	private final ScrapeTimeouts timeouts;

	/**
	 * Create a new endpoint.
	 * @param prometheusRegistry the registry, passed on to Spring Boot's endpoint
	 * @param exporterProperties client_java's exporter properties
	 * @param scraper the scraper that produces the bodies
	 * @param timeouts the deadlines of scrapes
	 */
	public LeanscrapeScrapeEndpoint(PrometheusRegistry prometheusRegistry, @Nullable Properties exporterProperties,
			Scraper scraper, ScrapeTimeouts timeouts) {
		super(prometheusRegistry, exporterProperties);
		this.scraper = scraper;
		this.timeouts = timeouts;
	}

	/**
	 * Answer a scrape with a {@link PendingScrape}: the web layer serves it, with the
	 * request's scrape timeout and encoding, and writes its pooled chunks without a copy.
	 * They go back to the pool when the response is done, also when the client went away.
	 * @param format the negotiated format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the response
	 */
	@ReadOperation(producesFrom = PrometheusOutputFormat.class)
	public WebEndpointResponse<Resource> scrapeBody(PrometheusOutputFormat format,
			@Nullable Set<String> includedNames) {
		PendingScrape pending = new PendingScrape(this.scraper, format, includedNames, this.timeouts);
		releaseWithServletRequest(pending);
		return new WebEndpointResponse<>(pending, format);
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
		ScrapeBody body = this.scraper.renderNow(format, includedNames);
		try {
			return new WebEndpointResponse<>(body.toByteArray(), format);
		}
		finally {
			body.release();
		}
	}

	/**
	 * Return the scraper behind this endpoint.
	 * @return the scraper
	 */
	public Scraper scraper() {
		return this.scraper;
	}

	/**
	 * Return the deadlines of scrapes.
	 * @return the timeouts
	 */
	public ScrapeTimeouts timeouts() {
		return this.timeouts;
	}

	/**
	 * On a servlet stack the operation runs on the request's thread: the body is released
	 * when the request completes, after the response was written or failed, whichever
	 * converter wrote it. Elsewhere the stack's body writer releases it.
	 */
	private static void releaseWithServletRequest(PendingScrape body) {
		if (!SERVLET_REQUESTS_PRESENT) {
			return;
		}
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes != null) {
			attributes.registerDestructionCallback(RELEASE_CALLBACK + body.hashCode(), body::release,
					RequestAttributes.SCOPE_REQUEST);
		}
	}

}
