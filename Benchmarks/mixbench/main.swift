print("mixbench: not yet implemented")
