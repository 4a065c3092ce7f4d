package io.github.leanscrape.web.reactive;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import io.github.leanscrape.web.FormatNegotiator;
import io.github.leanscrape.web.NameParameters;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Negotiates the scrape format with q-values, which Spring Boot's own choice ignores, and
 * hands the choice to the endpoint as an {@code Accept} header naming just that format. A
 * header that rules every format out is answered 406 Not Acceptable; one it cannot parse
 * is passed on untouched. Ordered after Spring Security's web filter chain.
 * <p>
 * It also reads {@code name[]} as {@code includedNames} (see {@link NameParameters}): the
 * endpoint sees a URI with {@code includedNames} only.
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
		FormatNegotiator.Result result = FormatNegotiator.negotiate(accept);
		if (result.notAcceptable()) {
			return Mono.error(new NotAcceptableStatusException(PRODUCIBLE));
		}
		PrometheusOutputFormat format = result.format();
		URI includedNamesUri = includedNamesUri(exchange.getRequest());
		if (format == null && includedNamesUri == null) {
			return chain.filter(exchange);
		}
		ServerHttpRequest.Builder request = exchange.getRequest().mutate();
		if (format != null) {
			String negotiated = format.getProducedMimeType().toString();
			request.headers((headers) -> headers.set(HttpHeaders.ACCEPT, negotiated));
		}
		if (includedNamesUri != null) {
			request.uri(includedNamesUri);
		}
		return chain.filter(exchange.mutate().request(request.build()).build());
	}

	/**
	 * Return the request's URI with its {@code name[]} parameters made
	 * {@code includedNames}.
	 * @param request the request
	 * @return the new URI, or {@code null} when the request has no {@code name[]}
	 */
	private static @Nullable URI includedNamesUri(ServerHttpRequest request) {
		MultiValueMap<String, String> parameters = request.getQueryParams();
		List<String> names = parameters.get(NameParameters.NAME);
		if (names == null) {
			return null;
		}
		List<String> includedNames = NameParameters.includedNames(parameters.get(NameParameters.INCLUDED_NAMES), names);
		URI uri = request.getURI();
		String query = NameParameters.rewriteQuery(uri.getRawQuery(), includedNames);
		String withoutQuery = uri.toString();
		int questionMark = withoutQuery.indexOf('?');
		if (questionMark >= 0) {
			withoutQuery = withoutQuery.substring(0, questionMark);
		}
		return URI.create(withoutQuery + "?" + query);
	}

	private static List<MediaType> producibleMediaTypes() {
		List<MediaType> mediaTypes = new ArrayList<>();
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			mediaTypes.add(new MediaType(format.getProducedMimeType()));
		}
		return List.copyOf(mediaTypes);
	}

}
