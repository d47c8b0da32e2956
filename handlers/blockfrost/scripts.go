package blockfrost

func (a *API) scriptRoutes() []Route { return nil }
