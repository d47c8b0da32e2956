package blockfrost

func (a *API) addressRoutes() []Route { return nil }
