package io.github.leanscrape.web.reactive;

import java.util.List;

import io.github.leanscrape.endpoint.ScrapeFormatNegotiator;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import reactor.core.publisher.Mono;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Negotiates the scrape format with q-values and hands the choice to the endpoint as an
 * {@code Accept} header naming just that format. Spring Boot's own choice ignores q-values.
 * <p>
 * Ordered after Spring Security's web filter chain. Headers it cannot parse are passed on
 * untouched.
 *
 * @author leanscrape
 */
public final class ScrapeNegotiationWebFilter implements WebFilter, Ordered {

	/**
	 * The order of this filter: after Spring Security's ({@code -100}).
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final ScrapeEndpointPaths paths;

	/**
	 * Create a new filter.
	 * @param paths where the endpoint is
	 */
	public ScrapeNegotiationWebFilter(ScrapeEndpointPaths paths) {
		this.paths = paths;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!this.paths.matches(exchange.getRequest().getPath().pathWithinApplication().value())) {
			return chain.filter(exchange);
		}
		List<String> accept = exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT);
		PrometheusOutputFormat format = ScrapeFormatNegotiator.negotiate(accept).format();
		if (format == null) {
			return chain.filter(exchange);
		}
		String negotiated = format.getProducedMimeType().toString();
		ServerWebExchange negotiatedExchange = exchange.mutate()
			.request((request) -> request.headers((headers) -> headers.set(HttpHeaders.ACCEPT, negotiated)))
			.build();
		return chain.filter(negotiatedExchange);
	}

}
