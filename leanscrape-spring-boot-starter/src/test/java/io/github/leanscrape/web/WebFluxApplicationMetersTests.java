package io.github.leanscrape.web;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Every meter of a Spring WebFlux application on Reactor Netty, against Spring Boot's
 * endpoint.
 */
@SpringBootTest(classes = WebFluxApplicationMetersTests.Application.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus,health" })
class WebFluxApplicationMetersTests extends AbstractApplicationMetersTests {

	/**
	 * An application with Spring Boot's auto-configuration and nothing of its own.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
