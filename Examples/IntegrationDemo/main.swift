print("IntegrationDemo")
