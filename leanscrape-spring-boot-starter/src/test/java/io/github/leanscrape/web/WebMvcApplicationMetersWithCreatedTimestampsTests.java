package io.github.leanscrape.web;

import java.nio.charset.StandardCharsets;

import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every meter of a Spring MVC application on Tomcat, against Spring Boot's endpoint, with
 * created timestamps turned on as a Spring Boot application turns them on: through
 * {@code management.prometheus.metrics.export.properties}.
 */
@SpringBootTest(classes = WebMvcApplicationMetersWithCreatedTimestampsTests.Application.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"server.tomcat.mbeanregistry.enabled=true",
				"management.endpoints.web.exposure.include=prometheus,health",
				"management.prometheus.metrics.export.properties[io.prometheus.exporter.includeCreatedTimestamps]=true" })
class WebMvcApplicationMetersWithCreatedTimestampsTests extends AbstractApplicationMetersTests {

	@Test
	void textFormatsCarryCreatedTimestamps() {
		HttpScraper http = new HttpScraper(this.port);
		String text = new String(http.get("/actuator/prometheus", "Accept", "text/plain").body(),
				StandardCharsets.UTF_8);
		assertThat(text).contains("# TYPE jvm_gc_memory_allocated_bytes_created gauge\n");
		String openMetrics = new String(
				http.get("/actuator/prometheus", "Accept", "application/openmetrics-text").body(),
				StandardCharsets.UTF_8);
		assertThat(openMetrics).contains("\njvm_gc_memory_allocated_bytes_created ");
	}

	/**
	 * An application with Spring Boot's auto-configuration and nothing of its own.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
