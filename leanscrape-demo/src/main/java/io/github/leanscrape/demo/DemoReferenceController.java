package io.github.leanscrape.demo;

import java.util.Set;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring Boot's own {@link PrometheusScrapeEndpoint} over the application's registry, at
 * {@code /reference/prometheus?format=CONTENT_TYPE_004&includedNames=a,b}: what the
 * starter's endpoint must send, byte for byte, from the same JVM. Off unless
 * {@code demo.reference-endpoint=true}; the tests that compare the two turn it on.
 *
 * @author leanscrape
 */
@RestController
@ConditionalOnBooleanProperty("demo.reference-endpoint")
class DemoReferenceController {

	private final PrometheusScrapeEndpoint boot;

	DemoReferenceController(PrometheusRegistry prometheusRegistry, PrometheusConfig prometheusConfig) {
		this.boot = new PrometheusScrapeEndpoint(prometheusRegistry, prometheusConfig.prometheusProperties());
	}

	@GetMapping("/reference/prometheus")
	ResponseEntity<byte[]> scrape(@RequestParam PrometheusOutputFormat format,
			@RequestParam(required = false) @Nullable String includedNames) {
		Set<String> names = (includedNames != null) ? StringUtils.commaDelimitedListToSet(includedNames) : null;
		WebEndpointResponse<byte[]> response = this.boot.scrape(format, names);
		return ResponseEntity.status(response.getStatus())
			.header("Content-Type", format.getProducedMimeType().toString())
			.body(response.getBody());
	}

}
