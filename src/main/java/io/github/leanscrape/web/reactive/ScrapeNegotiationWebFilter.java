package io.github.leanscrape.web.reactive;

import java.util.ArrayList;
import java.util.List;

import io.github.leanscrape.endpoint.ScrapeFormatNegotiator;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import reactor.core.publisher.Mono;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Negotiates the scrape format with q-values and hands the choice to the endpoint as an
 * {@code Accept} header naming just that format. Spring Boot's own choice ignores q-values.
 * <p>
 * A header that rules every format out (all with {@code q=0}, say) is answered 406 Not
 * Acceptable. Ordered after Spring Security's web filter chain. Headers it cannot parse are
 * passed on untouched, for Spring to answer as it answers Spring Boot's own endpoint.
 *
 * @author leanscrape
 */
public final class ScrapeNegotiationWebFilter implements WebFilter, Ordered {

	/**
	 * The order of this filter: after Spring Security's ({@code -100}).
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private static final List<MediaType> PRODUCIBLE = producibleMediaTypes();

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
		ScrapeFormatNegotiator.Result result = ScrapeFormatNegotiator.negotiate(accept);
		if (result.notAcceptable()) {
			return Mono.error(new NotAcceptableStatusException(PRODUCIBLE));
		}
		PrometheusOutputFormat format = result.format();
		if (format == null) {
			return chain.filter(exchange);
		}
		String negotiated = format.getProducedMimeType().toString();
		ServerWebExchange negotiatedExchange = exchange.mutate()
			.request((request) -> request.headers((headers) -> headers.set(HttpHeaders.ACCEPT, negotiated)))
			.build();
		return chain.filter(negotiatedExchange);
	}

	private static List<MediaType> producibleMediaTypes() {
		List<MediaType> mediaTypes = new ArrayList<>();
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			mediaTypes.add(new MediaType(format.getProducedMimeType()));
		}
		return List.copyOf(mediaTypes);
	}

}
